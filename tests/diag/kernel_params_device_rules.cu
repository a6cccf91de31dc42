// nvcc-flags: -arch=sm_90
__global__ void k1(int &&a, float &&b) {}
__global__ void k2(__grid_constant__ int x, __grid_constant__ float y) {}
__global__ void k3(const __grid_constant__ int x, int &y) {}
template <class T> __global__ void k4(T &&r) {}
