// nvcc-flags: -std=c++20
consteval int sq(int x) { return x * x; }
int host_fn(int y) { return sq(y); }
