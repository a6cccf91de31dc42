// A class defined with a qualified name sees the qualifying class's members,
// but classes derived from it do not inherit them.
struct outer {
  template<typename T> struct result {};
  template<typename T> using ptr = T*;
  template<typename S> struct task;
  struct base {};
  static const int facet = 1;
};
template<typename R, typename... A>
struct outer::task<R(A...)> : outer::base {
  typedef outer::ptr<result<R>> ptr_type;
};
template<typename T> struct facet {};
struct derived : outer::base {
  facet<int> f;
};
// CUDA: __noinline__ is a declaration specifier, not a macro.
__attribute__((device)) __noinline__ float lookup(int i) { return i; }
__attribute__((__noinline__)) void cold();
