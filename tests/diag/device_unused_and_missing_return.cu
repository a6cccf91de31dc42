// nvcc-flags:
__device__ int dev_fn() { int x = 1; }
