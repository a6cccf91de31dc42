// nvcc-flags:
__global__ void kern(int &&r) {}
