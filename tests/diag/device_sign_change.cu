// nvcc-flags:
__device__ unsigned dev_fn() { unsigned u = -1; return u; }
