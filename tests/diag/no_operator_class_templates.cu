// nvcc-flags:
template <class T> struct A { T v; };
template <class T, int N> struct B : A<T> {};
namespace q { template <class T> struct C {}; template <class T> C<T> operator+(C<T>, int); }
template <class T> struct D { friend D operator-(D, D) { return D(); } };
void f(A<int> a, const A<float> &ca, B<double, 3> b, q::C<int> c, D<int> d) {
  a + 1;
  2 * ca;
  b == a;
  !b;
  c + 1;
  d - d;
}
