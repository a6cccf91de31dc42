// nvcc-flags:
struct B { __device__ virtual void f(); };
struct D : B { void f(); };
