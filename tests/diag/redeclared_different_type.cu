// nvcc-flags:
int x;
double x;
