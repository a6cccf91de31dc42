// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
struct S {
  S() { use([] __device__ (int x) { return x; }); }
  ~S() { use([] __host__ __device__ (int x) { return x; }); }
};
