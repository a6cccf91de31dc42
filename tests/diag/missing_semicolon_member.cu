// nvcc-flags:
struct S { int a int b; };
