// nvcc-flags: --extended-lambda
class C {
  void m() { auto l = [] __device__ (int x) { return x; }; (void)l; }
};
