// nvcc-flags:
int host_fn() { return 1; }
__device__ int dev_fn() { return host_fn(); }
