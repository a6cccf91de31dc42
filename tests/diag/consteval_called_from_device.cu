// nvcc-flags: -std=c++20
consteval int sq(int x) { return x * x; }
__global__ void k(int *o) { *o = sq(3); }
__device__ int d() { return sq(4); }
__host__ __device__ int hd() { return sq(5); }
