// nvcc-flags: -arch=sm_90
__cluster_dims__(2, 1, 1) __device__ void dev_fn() {}
