// nvcc-flags:
int h = 09 + 0x;
