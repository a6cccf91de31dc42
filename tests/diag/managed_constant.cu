// nvcc-flags:
__managed__ __constant__ int x;
