// nvcc-flags:
template <class T> struct Check { static_assert(sizeof(T) > 4, "too small"); };
template <class T> struct Holder { Check<T> c; };
namespace n { template <class A, int N> struct P { static_assert(N > 1); A a[N]; }; }
Holder<bool> h;
struct U { n::P<char, 1> c; };
__global__ void kern() {}
