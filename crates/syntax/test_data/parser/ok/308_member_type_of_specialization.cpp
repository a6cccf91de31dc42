// Members that the parser cannot see (inherited from a dependent base of a
// class template) still declare pointers and references at block scope.
template <class T> struct B2 { typedef T type; };
template <class T> struct d2 : B2<T> {};
namespace n { template <class... T> struct ct; template <class A, class B> struct ct<A, B> : d2<A> {}; }
void f(long a, long b) {
  d2<long>::type* g = &a;
  n::ct<long, long>::type& r = b, *q = &b;
  n::ct<int, int>::type const* c{};
  d2<long>::type* arr[2];
  a * b;
  (void)g; (void)r; (void)q; (void)c; (void)arr;
}
