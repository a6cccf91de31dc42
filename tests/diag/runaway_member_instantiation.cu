// nvcc-flags:
namespace n {
template<int N> struct Inf { int a; Inf<N + 1> next; };
}
struct User { n::Inf<-5> first; };
__global__ void k() {}
