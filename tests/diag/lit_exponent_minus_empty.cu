// nvcc-flags:
double b = 2.5E-;
