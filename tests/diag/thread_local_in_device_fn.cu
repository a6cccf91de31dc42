// nvcc-flags:
__device__ int dev_fn() { static thread_local int t; return t; }
