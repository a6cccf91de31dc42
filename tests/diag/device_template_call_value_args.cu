// nvcc-flags:
template <bool B, char C, unsigned N> __device__ int g() { return N; }
int host_fn() { return g<true, (char)65, 7u>(); }
