// nvcc-flags:
char c = 'a;
