// A `<` after a complete name inside template arguments is less-than.
template <bool B> struct bool_constant { static const bool value = B; };
template <int N, int D> struct R { static const int num = N; static const int den = D; };
template <class A, class B> struct less1 : bool_constant<A::num * B::den < B::num * A::den> {};
template <int a, int b, int x, int y>
using less2 = bool_constant<R<a,b>::num * R<x,y>::den < R<x,y>::num * R<a,b>::den>;
template <int a, int b, int x, int y>
void f() { bool_constant<R<a,b>::num * R<x,y>::den < R<x,y>::num * R<a,b>::den> v; }
void g() { bool_constant<R<1,2>::num * R<3,4>::den < R<3,4>::num * R<1,2>::den> v; }
bool_constant<(static_cast<int>(1) < 2)> h();
