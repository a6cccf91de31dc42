// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
void outer() {
  struct L { void m() { use([] __device__ (int x) { return x; }); } };
}
