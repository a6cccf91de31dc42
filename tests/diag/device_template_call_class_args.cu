// nvcc-flags:
struct P { int a; }; namespace q { struct R {}; }
template <class T, class U> __device__ void f(const T &x, U *y) { }
void host_fn() { P p; q::R r; f(p, &r); }
