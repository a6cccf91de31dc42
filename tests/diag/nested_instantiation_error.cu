// nvcc-flags:
template <class T> struct Inner { T t; int f() { return t.nope; } };
template <class T> struct Outer { int g() { Inner<T> i; return i.f(); } };
int host_fn() { Outer<int> o; return o.g(); }
