// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
void host_fn() {
  auto g = [] __host__ __device__ (int q) {
    use([] __device__ (int y) { return y; });
    use([] __host__ __device__ (int y) { return y; });
    return q;
  };
  use(g);
}
