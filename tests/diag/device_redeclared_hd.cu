// nvcc-flags:
__device__ int f6();
__host__ __device__ int f6() { return 1; }
