// nvcc-flags:
constexpr int cf() { return 1; }
__device__ int use_cf() { return cf(); }
