// nvcc-flags:
struct S;
S s;
