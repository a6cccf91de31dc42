// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
struct { void m() { use([] __device__ (int x) { return x; }); } } unnamed;
