// nvcc-flags:
__device__ int dv;
int *p = &dv;
