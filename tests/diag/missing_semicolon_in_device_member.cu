// nvcc-flags: --diag-suppress 65
struct S { __device__ int get() { return 1; } int v };
