// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
void by_ref_init_capture() { int v = 0; use([&r = v] __host__ __device__ (int a) { return a + r; }); }
typedef struct { void m() { use([] __device__ (int x) { return x; }); } } TypedefNamed;
void try_block() try { int x = 0; use([&] __device__ (int a) { return a + x; }); } catch (...) {}
void constants() {
  constexpr int k = 3;
  const double d = 1.0;
  int x = 0;
  use([&] __device__ (int a) { return a + k + (int)d + (int)sizeof(x); });
  use([&] __device__ (int a) { auto in = [=] { return x; }; return a + in(); });
}
