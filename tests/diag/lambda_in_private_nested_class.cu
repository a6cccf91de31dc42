// nvcc-flags: --extended-lambda
template <class F> void use(F) {}
struct Outer {
 protected:
  struct Inner { struct Leaf { void m() { use([] __device__ (int x) { return x; }); } }; };
};
