// nvcc-flags: --extended-lambda
template <class T> struct W { T t; };
template <class F> __global__ void kern(F f) { }
template <class T, class F> __global__ void kern2(T t, F f) { }
namespace ns { template <class F> __global__ void k3(F f) { } }
void host_fn() {
  int y = 1;
  auto a = [=](int p, float q) { return p + q + y; };
  kern<<<1, 1>>>(a);
  kern<<<1, 1>>>(a);
  auto b = [](const int &, int *p) mutable noexcept -> long { return *p; };
  kern2<<<1, 1>>>(1, W<decltype(b)>{b});
  ns::k3<<<1, 1>>>(b);
  auto d = [] __device__ (int x) { return x; };
  kern<<<1, 1>>>(d);
  auto hd = [] __host__ __device__ () { };
  ns::k3<<<1, 1>>>(hd);
}
__global__ void outer() {
  auto e = [](int) { };
  kern<<<1, 1>>>(e);
}
