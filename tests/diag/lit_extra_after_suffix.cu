// nvcc-flags:
int e = 1u2;
