// nvcc-flags:
int g();
constexpr int x = g();
