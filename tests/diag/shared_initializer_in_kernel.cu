// nvcc-flags:
__global__ void kern() { __shared__ float buf[4] = {1, 2, 3, 4}; (void)buf; }
