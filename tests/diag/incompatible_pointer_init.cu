// nvcc-flags:
int i;
double *p = &i;
