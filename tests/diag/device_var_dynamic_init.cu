// nvcc-flags:
int compute() { return 3; }
__device__ int dv = compute();
