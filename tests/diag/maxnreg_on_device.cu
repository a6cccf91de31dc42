// nvcc-flags:
__maxnreg__(32) __device__ void dev_fn() {}
