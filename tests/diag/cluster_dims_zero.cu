// nvcc-flags: -arch=sm_90
__global__ void __cluster_dims__(0, 1, 1) kern() {}
