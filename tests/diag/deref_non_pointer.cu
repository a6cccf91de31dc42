// nvcc-flags:
int host_fn() { int x = 1; return *x; }
