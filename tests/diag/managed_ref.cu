// nvcc-flags:
int g;
__managed__ int &mr = g;
