// nvcc-flags:
int host_fn() { return 1; }
__host__ __device__ int hd_fn() { return host_fn(); }
