// nvcc-flags:
int c = 08;
