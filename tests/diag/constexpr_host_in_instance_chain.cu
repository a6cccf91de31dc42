// nvcc-flags:
#include <limits>
template <class T> constexpr T cft() { return T(1); }
template <class T> struct Max { __host__ __device__ static T identity() { return std::numeric_limits<T>::lowest(); } };
template <int B, class T, class Op> __global__ void reduce(const T *in, T *out, unsigned long n, Op) { *out = Op::identity() + in[n] + B; }
template <class T, class Op> T run(const T *in, Op op) { reduce<4><<<1, 1>>>(in, (T *)0, 1ul, op); return T(); }
template <class T, class Op> T run2(const T *in, Op op) { return run(in, op); }
template <class T> __host__ __device__ T g() { return cft<T>(); }
template <class T> __host__ __device__ T f() { T a = cft<T>(); a += g<T>(); return a + cft<T>(); }
template <class T> __global__ void k(T *p) { *p = f<T>(); }
void h(float *p) { k<<<1, 1>>>(p); g<int>(); f<int>(); }
int main() { run2((const float *)0, Max<float>{}); run((const double *)0, Max<double>{}); }
