// nvcc-flags:
enum E { e0 };
namespace ns { enum class F { f0 }; }
template <class T> int f1(const T &x) { return x.m; }
template <class T> int f2(T x) { return x.m + x.n; }
template <class T> __host__ __device__ int f3(T x) { T y = x; return y.m; }
int h() { int i = 0; return f1(3) + f2(e0) + f2(&i) + f3(ns::F::f0) + f1(2u); }
