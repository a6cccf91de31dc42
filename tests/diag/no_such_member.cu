// nvcc-flags:
struct S { int a; };
int host_fn(S s) { return s.b; }
