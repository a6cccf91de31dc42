// nvcc-flags: -std=c++17 -rdc=true
inline __device__ int v = 1;
inline __constant__ int c = 2;
