// nvcc-flags:
__device__ void dev_fn() { int unused; }
