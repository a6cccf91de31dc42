// nvcc-flags:
struct S { __device__ int get() const { return 1; } };
int host_fn(const S &s) { return s.get(); }
