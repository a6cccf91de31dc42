// nvcc-flags:
__device__ void dev_fn() { __shared__ int s = 5; (void)s; }
