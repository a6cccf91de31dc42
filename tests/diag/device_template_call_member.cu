// nvcc-flags:
struct S { template <class T> __device__ T m(T x) { return x; } };
int host_fn() { S s; return s.m(2); }
