// nvcc-flags:
__global__ void kern(int *p) { *p = 09; }
