// nvcc-flags:
template <class T> T add_one(T x) { return x + 1; }
template <class T> bool neg(const T &x) { int y = 0; return !x && y + 1; }
template <class T> bool less(T a, T *p) { return a < p; }
struct S {};
S host_fn() { return add_one(S()); }
int g() { return add_one(1) + neg(S()) + neg(2) + less(S(), (S *)0); }
