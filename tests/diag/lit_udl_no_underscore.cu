// nvcc-flags:
int i = 12abc;
