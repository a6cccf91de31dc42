// nvcc-flags:
struct S { __host__ __device__ ~S() = default; };
