// nvcc-flags:
struct S { S(int, int); };
void g(S);
void f() {
  S a = S{1};
  S *p = new S{2};
  const S c(3);
  static S d(4);
  g(S(5));
  auto l = [] { S e(6); };
}
__device__ void h() { S x(7); }
template <class T> void t() { T z(9); }
S s = (S(10));
