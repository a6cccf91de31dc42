// nvcc-flags:
__global__ void kern() { extern __shared__ int buf[4]; buf[0] = 0; }
