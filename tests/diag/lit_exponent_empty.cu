// nvcc-flags:
double b = 1e+;
