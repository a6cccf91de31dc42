// nvcc-flags:
int a = 0x;
