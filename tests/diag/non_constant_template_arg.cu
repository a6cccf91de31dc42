// nvcc-flags:
template <int N> struct A {};
int n = 3;
A<n> a;
