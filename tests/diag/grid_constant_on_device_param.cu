// nvcc-flags:
__device__ int dev_fn(const __grid_constant__ int x) { return x; }
