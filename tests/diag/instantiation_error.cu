// nvcc-flags:
template <class T> T add_one(T x) { return x + 1; }
struct S {};
S host_fn() { return add_one(S()); }
