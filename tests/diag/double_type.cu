// nvcc-flags:
int int x;
