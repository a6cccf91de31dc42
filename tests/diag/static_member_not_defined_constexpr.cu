// nvcc-flags:
struct S { static constexpr int n; };
