// nvcc-flags:
void host_fn() { __shared__ int s; (void)s; }
