// nvcc-flags:
__launch_bounds__(128) __device__ void dev_fn() {}
