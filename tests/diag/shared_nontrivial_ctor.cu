// nvcc-flags:
struct S { S() {} int v; };
__global__ void kern() { __shared__ S s; (void)s; }
