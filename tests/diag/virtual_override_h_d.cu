// nvcc-flags:
struct B { virtual void f(); };
struct D : B { __device__ void f(); };
