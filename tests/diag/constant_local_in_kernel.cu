// nvcc-flags:
__global__ void kern() { __constant__ int c; (void)c; }
