// nvcc-flags:
double j = 1.5e;
