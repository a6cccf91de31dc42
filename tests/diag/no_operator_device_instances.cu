// nvcc-flags:
struct V { float x; };
template <class T> __device__ T twice(T v) { return v * 2; }
template <class T> __global__ void k(T *out, T a) { *out = twice(a); bool z = a == a; (void)z; }
template <class T> __host__ __device__ bool less_than(const T &a, const T &b) { return a < b; }
void launch(V *o) {
  k<<<1, 1>>>(o, V());
  less_than(V(), V());
  less_than(1, 2);
}
