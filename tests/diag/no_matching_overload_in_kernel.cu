// nvcc-flags:
__device__ void f(int *);
__device__ void f(char *);
__global__ void k() { f(2.0); }
