// nvcc-flags:
__global__ constexpr void kern() {}
