// nvcc-flags: --extended-lambda
void host_fn() { int x = 0; auto l = [&] __device__ () { return x; }; (void)l; }
