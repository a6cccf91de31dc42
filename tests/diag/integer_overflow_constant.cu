// nvcc-flags:
int x = 2147483647 + 1;
