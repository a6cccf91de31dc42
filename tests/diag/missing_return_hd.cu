// nvcc-flags:
__host__ __device__ int hd_fn(int x) { if (x) return 1; }
