// nvcc-flags:
int n = 1 + 019 * 2;
