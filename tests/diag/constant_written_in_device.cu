// nvcc-flags:
__constant__ int cv;
__device__ void dev_fn() { cv = 1; }
