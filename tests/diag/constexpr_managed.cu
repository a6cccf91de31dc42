// nvcc-flags:
constexpr __managed__ int m = 1;
