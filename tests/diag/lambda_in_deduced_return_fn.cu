// nvcc-flags: --extended-lambda
auto host_fn() { auto l = [] __device__ (int x) { return x; }; return 0; }
