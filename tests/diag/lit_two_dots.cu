// nvcc-flags:
double f = 1.2.3;
