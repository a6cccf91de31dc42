// nvcc-flags:
struct S { void m(); S(int); explicit S(long); mutable int mm; };
explicit S::S(int) {}
mutable int x;
static virtual void f3();
template <class T> virtual void f5(T);
