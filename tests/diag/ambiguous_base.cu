// nvcc-flags:
struct A { int v; };
struct B : A {};
struct C : A {};
struct D : B, C {};
int host_fn(D &d) { return d.v; }
