// nvcc-flags:
int a = 0xg;
