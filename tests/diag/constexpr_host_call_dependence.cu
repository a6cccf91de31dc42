// nvcc-flags:
namespace ns { template <class T> constexpr T cft() { return T(1); } constexpr int cf() { return 1; } }
struct S { static constexpr int sm() { return 1; } template <class T> static constexpr T st() { return T(1); } };
template <class T> struct C { static constexpr T cm() { return T(1); } };
namespace q { template <class T, int N> struct P { __host__ __device__ static T v(const T *, unsigned) { return ns::cft<T>() + N; } }; }
template <class T> __device__ T d1() { return ns::cft<T>() + S::st<T>() + C<T>::cm(); }
template <class T> __device__ T d2() { return ns::cf() + S::sm(); }
template <class T> __host__ __device__ T d3() { return ns::cf(); }
template <class T> __global__ void k() { d1<T>(); d2<T>(); d3<T>(); }
template <class T> __global__ void k2() { ns::cft<T>(); d2<T>(); }
void h() { k<int><<<1, 1>>>(); k<char><<<1, 1>>>(); k2<long><<<1, 1>>>(); q::P<char, 3>::v(0, 0u); }
__device__ int late_error() { return ns::cf(); }
