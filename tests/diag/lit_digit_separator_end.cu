// nvcc-flags:
int l = 1'2'';
