// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
void host_fn() {
  use([] __device__ (int x) constexpr { return x; });
  use([] __host__ __device__ (int x) constexpr { return x; });
}
