// nvcc-flags:
char c = 1000;
