// nvcc-flags: -std=c++17
static inline __device__ int v1 = 1;
namespace { inline __constant__ int v2 = 2; }
namespace M { inline __managed__ int v3 = 3; }
