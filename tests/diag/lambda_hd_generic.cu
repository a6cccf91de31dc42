// nvcc-flags: --extended-lambda
void host_fn() { auto l = [] __host__ __device__ (auto x) { return x; }; (void)l; }
