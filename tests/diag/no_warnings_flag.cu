// nvcc-flags: -w
int host_fn() {}
unsigned u = -1;
