// A lazily parsed body sees the names declared before it, however late it
// is parsed: `v` and `T` are the global ones in `f` and `g`, not `N::v`
// (a class template) and `N::T` (a type) declared after them.
int v = 0;
int T = 3;
namespace N {
  int f(int x) { return v < x; }
  int g(int x) { return T * x; }
  template <class U> struct v {};
  typedef int T;
}
// A member body sees its whole class (`g`, `m` declared after it) and the
// names declared before the class's end.
struct C {
  int f() { return g<int>(1) + h(); }
  template <class U> int g(U) { return 0; }
  struct Nested { int k() { return m<3>(); } };
  template <int> static int m() { return 0; }
  int h();
};
int C::h() { return g<char>('a'); }
// A member of a local class does not see what its function declares after it.
int F(int);
void outer() {
  struct L { int m(int x) { F(x); return 0; } };
  typedef int F;
  F y = 0;
}
