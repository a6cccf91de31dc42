// nvcc-flags:
void v;
