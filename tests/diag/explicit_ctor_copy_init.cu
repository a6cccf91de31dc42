// nvcc-flags:
struct S { explicit S(int); };
S s = 1;
