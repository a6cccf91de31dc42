// nvcc-flags:
struct B { virtual void f(); };
struct D : B { __host__ __device__ void f(); };
