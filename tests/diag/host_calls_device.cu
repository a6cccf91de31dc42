// nvcc-flags:
__device__ int dev_fn() { return 1; }
int host_fn() { return dev_fn(); }
