// nvcc-flags:
__device__ void dev_fn() {}
void host_fn() { dev_fn<<<1, 1>>>(); }
