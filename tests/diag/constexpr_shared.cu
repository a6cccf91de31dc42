// nvcc-flags:
__device__ void dev_fn() { constexpr __shared__ int s = 1; (void)s; }
