// nvcc-flags:
__device__ int f4();
__host__ int f4() { return 1; }
