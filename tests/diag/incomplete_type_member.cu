// nvcc-flags:
struct S;
struct M { static S ms; S *p; };
struct N { int i; S n; void v; };
