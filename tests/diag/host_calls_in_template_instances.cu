// nvcc-flags:
int hf(int);
namespace ns { struct X {}; template <class T> struct Y {}; }
struct G {};
template <class T> __global__ void kern(T t) { hf(2); }
template <class T, int N> __global__ void k2(T t) { hf(N); }
namespace q { template <class T> __global__ void k3(T t) { hf(3); } }
template <class T> __device__ void dv(T t) { hf(4); }
template <class T> __global__ void k4(T t) { dv(t); }
struct S { template <class T> __device__ void m(T) { hf(5); } };
template <class T> __global__ void k5(T t) { S s; s.m(t); }
void h() {
  kern<<<1,1>>>(1);
  kern<<<1,1>>>(G{});
  kern<<<1,1>>>(ns::X{});
  kern<<<1,1>>>(ns::Y<int>{});
  kern<<<1,1>>>((const char *)0);
  k2<float, 3><<<1,1>>>(1.0f);
  q::k3<<<1,1>>>(1u);
  k4<<<1,1>>>(2L);
  k5<<<1,1>>>('c');
}
