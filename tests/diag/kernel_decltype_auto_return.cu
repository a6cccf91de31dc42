// nvcc-flags:
__global__ decltype(auto) kern() {}
