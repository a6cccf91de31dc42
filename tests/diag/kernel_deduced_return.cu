// nvcc-flags:
__global__ auto kern() {}
