// nvcc-flags:
struct S { static __global__ void kern() {} };
