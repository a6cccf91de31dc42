// nvcc-flags:
__shared__ __constant__ int x;
