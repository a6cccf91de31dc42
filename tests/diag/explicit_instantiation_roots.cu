// nvcc-flags:
constexpr int cf(int x) { return x; }
template <class T> __global__ void kern(T t) { int a = cf(t); }
template __global__ void kern<int>(int);
template <class T> __device__ void dd(T t) { int a = cf(t); }
template <class T> __global__ void kern2(T t) { dd(t); }
template __global__ void kern2(char);
