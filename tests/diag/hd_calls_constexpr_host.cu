// nvcc-flags:
constexpr int cf() { return 1; }
namespace ns { constexpr int cg() { return 2; } }
__host__ __device__ int hd() { return cf() + ns::cg(); }
template <class T> struct M { __host__ __device__ static T id() { return T(cf()); } };
__global__ void k(float *p) { *p = M<float>::id() + M<double>::id(); }
