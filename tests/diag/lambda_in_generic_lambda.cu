// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
void host_fn() {
  auto g = [](auto q) { use([] __device__ (int y) { return y; }); return q; };
  g(1);
}
