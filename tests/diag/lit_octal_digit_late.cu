// nvcc-flags:
int c = 0778;
