// nvcc-flags:
__global__ inline void kern() {}
