// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
void host_fn() { int a = 1; use([b = a] __host__ __device__ (int x) { return x + b; }); }
