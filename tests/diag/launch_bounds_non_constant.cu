// nvcc-flags:
int n = 128;
__global__ void __launch_bounds__(n) kern() {}
