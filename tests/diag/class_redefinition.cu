// nvcc-flags:
struct S {};
struct S {};
