// nvcc-flags:
int x = 1 @ 2;
