// nvcc-flags: -arch=sm_90
__global__ void kern(__grid_constant__ int x) {}
