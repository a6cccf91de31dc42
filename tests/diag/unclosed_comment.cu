// nvcc-flags:
int x; /* never closed
