// nvcc-flags:
int d = 0b;
