// nvcc-flags:
int g = 0x1e+1;
