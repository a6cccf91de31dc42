// nvcc-flags:
int host_fn() { return nope; }
