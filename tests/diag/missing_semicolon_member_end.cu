// nvcc-flags:
struct S { int a };
