// nvcc-flags:
constexpr __device__ int d0 = 1;
constexpr __constant__ int c0 = 1;
__device__ void dev_fn() { static constexpr __managed__ int m2 = 2; (void)m2; }
