// nvcc-flags: -arch=sm_90
constexpr int Z = 0;
__device__ void __maxnreg__(Z) d1() {}
__global__ void __maxnreg__(0) __launch_bounds__(128) k1() {}
__device__ void __cluster_dims__(0, 0) d2() {}
template <int N> __global__ void __maxnreg__(N) k2() {}
__global__ void __launch_bounds__(128, 2, 1 - 2) k3() {}
