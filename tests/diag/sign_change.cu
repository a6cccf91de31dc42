// nvcc-flags:
unsigned u = -1;
