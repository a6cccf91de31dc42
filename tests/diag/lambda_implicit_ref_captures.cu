// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
struct M {
  int f;
  void m() { use([&] __device__ (int a) { return a + f; }); }
};
void host_fn(int p) {
  int x = 0, y = 1;
  static int s = 0;
  use([&] __device__ (int a) { int y = 2; return a + s + (int)sizeof(x) + y + p + p; });
  use([&, x] __host__ __device__ (int a) { return a + x; });
}
