// nvcc-flags:
int *host_fn() { return 1.0; }
