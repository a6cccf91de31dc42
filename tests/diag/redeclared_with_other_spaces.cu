// nvcc-flags:
__host__ int f7();
__host__ __device__ int f7() { return 1; }
__device__ int f8();
int f8() { return 1; }
struct S { __device__ int m(); };
__host__ __device__ int S::m() { return 1; }
template <class T> __device__ int tf(T);
template <class T> __host__ int tf(T) { return 1; }
__device__ int f10(int);
__host__ int f10(float) { return 1; }
