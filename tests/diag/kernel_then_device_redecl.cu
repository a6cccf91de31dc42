// nvcc-flags:
__global__ void kern();
__device__ void kern();
