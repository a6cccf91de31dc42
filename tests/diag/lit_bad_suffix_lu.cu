// nvcc-flags:
long m = 1lul;
