// nvcc-flags:
namespace n { template <class T> __device__ T twice(T x) { return x + x; } }
int host_fn() { return n::twice(2); }
