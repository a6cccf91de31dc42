// nvcc-flags:
__global__ void __launch_bounds__(128) __maxnreg__(32) kern() {}
