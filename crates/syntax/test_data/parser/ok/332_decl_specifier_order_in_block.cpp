// Decl-specifiers in any order at block scope.
typedef unsigned int uint32_t;
template <class T> struct box { typedef T type; };
void f() {
  uint32_t constexpr k = 0x7fffffff;
  uint32_t static s = 2;
  uint32_t const static c = 1;
  box<int>::type constexpr b = 4;
  int constexpr i = 5;
}
template <class T> void g() {
  typename box<T>::type constexpr t = 0;
  T static u;
}
