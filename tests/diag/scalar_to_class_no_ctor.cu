// nvcc-flags:
struct A { int x; };
struct Q { Q(const Q &); Q(); };
A make() { return 1; }
void use(A);
void host_fn() { Q q = 4; use(2.5); }
