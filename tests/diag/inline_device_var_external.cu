// nvcc-flags: -std=c++17
inline __device__ int v = 1;
