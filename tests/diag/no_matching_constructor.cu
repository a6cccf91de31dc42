// nvcc-flags:
struct S { S(int, int); };
S s(1);
