// nvcc-flags:
template <class F> __global__ void kern(F f) { f(); }
void host_fn() { auto l = [] { }; kern<<<1, 1>>>(l); }
