// nvcc-flags:
char c = '';
