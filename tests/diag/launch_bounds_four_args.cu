// nvcc-flags:
__global__ void __launch_bounds__(128, 2, 1, 7) kern() {}
