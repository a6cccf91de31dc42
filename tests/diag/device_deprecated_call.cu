// nvcc-flags:
[[deprecated]] __device__ void old_dev();
__device__ void dev_fn() { old_dev(); }
