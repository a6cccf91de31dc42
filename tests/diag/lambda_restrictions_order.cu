// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
class C {
  auto m() { int x = 0; use([&] __device__ (int a) { return a + x; }); return 0; }
};
void hd_fn() {
  int x = 0;
  use([&x, y = 1] __host__ __device__ (auto a) constexpr { return a + y; });
}
