// nvcc-flags:
struct S { __launch_bounds__(64) __device__ void m() {} };
