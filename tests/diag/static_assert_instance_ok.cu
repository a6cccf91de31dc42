// nvcc-flags: -std=c++17
#include <array>
#include <tuple>
template <class T, int N> struct Vec { static_assert(N > 0, "empty"); static_assert(sizeof(T) <= 8); T v[N]; };
Vec<float, 4> a;
Vec<double, 2> b[3];
struct Holder { Vec<int, 1> one; std::array<int, 3> arr; std::tuple<int, float> t; };
__global__ void kern(float *p) { Vec<float, 2> local; local.v[0] = *p; *p = local.v[0]; }
