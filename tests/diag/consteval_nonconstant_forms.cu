// nvcc-flags: -std=c++20
consteval int sq(int x) { return x * x; }
int m(int y) { constexpr int k = sq(y); return k; }
int n(int y) { int a[2] = {sq(y), 1}; return a[0]; }
int o(int y) { return y > 0 ? sq(y) : 0; }
int p(int y) { if (y) return sq(-y); return sq((long)y); }
struct S { int q(int y) const { return sq(y); } };
