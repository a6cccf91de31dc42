// nvcc-flags:
struct S { S() {} int v; };
__device__ S s;
