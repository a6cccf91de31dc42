// nvcc-flags:
template <class F> void use(F) {}
auto at_namespace_scope = [] __device__ (int x) { return x; };
struct N { int f = [] __host__ __device__ (int a) { return a; }(1); };
__device__ void dev_fn() { use([] __device__ (int x) { return x; }); }
void host_fn() { use([] __host__ (int x) { return x; }); }
