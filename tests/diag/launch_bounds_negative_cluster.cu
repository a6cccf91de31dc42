// nvcc-flags: -arch=sm_90
__global__ void __launch_bounds__(128, 1, -1) kern() {}
