struct S { int v; };
typedef int I;
void f() {
  int a = 1, b[2] = {1, 2};
  S s{3};
  I* p = &a;
  a * b[0];
  static_assert(sizeof(S) == sizeof(int), "");
  using T = S;
  T t = s;
  struct L { int g() { return 1; } int h() { return g(); } };
  __extension__ typedef long long ll;
  __extension__ ({ a + 1; });
  (void)p; (void)t;
}
