// nvcc-flags: -std=c++20
consteval int sq(int x) { return x * x; }
consteval int zero(int) { return 0; }
int a(int y) { return sq(y); }
int b(int y) { int z = y; return sq(z) + sq(y + 1); }
int c(int y) { return zero(y); }
int d(int y) { const int k = 3; return sq(k); }
consteval int g(int y) { return sq(y); }
int h(int y) { return sq(sq(y)); }
struct Q { int m(int y) { return sq(y); } };
__device__ int dv(int y) { return sq(y); }
