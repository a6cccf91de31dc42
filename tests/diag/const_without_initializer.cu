// nvcc-flags:
const int x;
