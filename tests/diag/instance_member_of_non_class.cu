// nvcc-flags:
template <class T> int f1(T x) { return x.m; }
template <class T> __device__ int f2(T p) { return p.m + 1; }
template <class T> __global__ void k(T v) { f2(v); }
template <class T> struct In { T t; int f() { return t.nope; } };
template <class T> struct Out { int g() { In<T> i; return i.f(); } };
int h() { Out<int> o; k<<<1,1>>>(2.0f); return f1(3) + o.g() + f1('c'); }
