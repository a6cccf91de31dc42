// nvcc-flags:
template <class T> constexpr T cft() { return T(1); }
int hf();
template <class T> __host__ __device__ T g() { hf(); return cft<T>(); }
template <class T> __host__ __device__ T g2() { return cft<T>(); }
void h() { g<int>(); }
template <class T> __global__ void k() { g2<T>(); }
void h2() { k<int><<<1,1>>>(); }
