// nvcc-flags:
__device__ int dev_fn() { return 0x + 1; }
