// nvcc-flags:
int host_fn() {}
