// nvcc-flags:
struct S { __device__ S() = default; int x; };
