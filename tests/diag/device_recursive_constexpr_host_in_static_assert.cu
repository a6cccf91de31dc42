// nvcc-flags:
constexpr int cf(int x) { return x; }
template <class T> __global__ void kern() { static_assert(cf(1) == 1, ""); }
template __global__ void kern<int>();
