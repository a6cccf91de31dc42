// nvcc-flags:
__device__ void dev_fn(int n) { int a[n]; (void)a; }
