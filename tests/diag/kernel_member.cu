// nvcc-flags:
struct S { __global__ void kern(); };
