// nvcc-flags:
int x = 1
int y = 2;
