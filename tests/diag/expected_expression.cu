// nvcc-flags:
int x = ;
