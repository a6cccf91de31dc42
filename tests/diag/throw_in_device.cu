// nvcc-flags:
__device__ void dev_fn() { throw 1; }
