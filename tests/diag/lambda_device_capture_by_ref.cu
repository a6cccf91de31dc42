// nvcc-flags: --extended-lambda
void host_fn() { int x = 0; auto l = [&x] __device__ () { return x; }; (void)l; }
