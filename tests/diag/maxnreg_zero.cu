// nvcc-flags:
__global__ void __maxnreg__(0) kern() {}
