// nvcc-flags:
__managed__ __shared__ int x;
