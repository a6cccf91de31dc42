// nvcc-flags:
int f5();
__device__ int f5() { return 1; }
