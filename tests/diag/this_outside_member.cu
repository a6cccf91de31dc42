// nvcc-flags:
int host_fn() { return this != 0; }
