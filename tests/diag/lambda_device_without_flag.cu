// nvcc-flags:
void host_fn() { auto l = [] __device__ (int x) { return x; }; (void)l; }
