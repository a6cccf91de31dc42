// nvcc-flags:
constexpr int cf(int x) { return x; }
__device__ constexpr int dcf() { return 1; }
__device__ int dv();
void h() { static_assert(dcf() == 1, ""); }
__device__ void d() { static_assert(cf(1) == 1, ""); }
__host__ __device__ void hd() { static_assert(cf(1) == 1, ""); static_assert(dcf() == 1, ""); }
__global__ void k() { static_assert(cf(2) == 2, ""); }
