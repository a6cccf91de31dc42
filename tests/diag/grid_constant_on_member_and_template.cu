// nvcc-flags:
struct S { __device__ void m(const __grid_constant__ int x) {} };
template <class T> __device__ int t(const __grid_constant__ T x) { return 0; }
__global__ void k(const __grid_constant__ int x) {}
