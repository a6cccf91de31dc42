// nvcc-flags:
struct S {}
int x;
