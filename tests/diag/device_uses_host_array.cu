// nvcc-flags:
int table[4];
__device__ int dev_fn(int i) { return table[i]; }
