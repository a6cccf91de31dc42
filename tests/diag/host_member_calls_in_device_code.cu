// nvcc-flags:
struct A { int g() const; int h(); int operator()(int) const; };
__device__ void d(A a) { a.g(); a.h(); a(1); }
struct Fn { int operator()(int x) const { return x; } };
int hf2(int);
template <class F> __global__ void kern(F f) { f(1); hf2(2); }
void h3() { kern<<<1,1>>>(Fn{}); }
