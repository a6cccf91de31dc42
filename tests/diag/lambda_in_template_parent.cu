// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
template <class T> auto tf(T t) { use([&t] __device__ (int a) { return a; }); return t; }
template <class T> struct CT { void m() { int x = 0; use([&] __device__ (int a) { return a + x; }); } };
void host_fn() { tf(1); CT<int>().m(); }
