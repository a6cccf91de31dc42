// nvcc-flags:
struct B { __host__ __device__ virtual void f(); };
struct D : B { void f(); };
