// nvcc-flags:
thread_local __constant__ int t2 = 1;
static thread_local __device__ int t3 = 2;
__global__ void kern(int *p) { *p = t3; }
