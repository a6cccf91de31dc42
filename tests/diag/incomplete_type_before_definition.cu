// nvcc-flags:
struct S;
S *p;
extern S e;
S a;
struct S { int x; };
S b;
struct T { S s; void f() { S local; (void)local; } };
