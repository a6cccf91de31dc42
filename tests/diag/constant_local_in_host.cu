// nvcc-flags:
void host_fn() { __constant__ int c = 1; (void)c; }
