// nvcc-flags:
int class = 1;
