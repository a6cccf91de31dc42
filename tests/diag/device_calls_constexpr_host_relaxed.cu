// nvcc-flags: --expt-relaxed-constexpr
constexpr int cf() { return 1; }
__device__ int use_cf() { return cf(); }
