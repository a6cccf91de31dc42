mod layout_vectors;
