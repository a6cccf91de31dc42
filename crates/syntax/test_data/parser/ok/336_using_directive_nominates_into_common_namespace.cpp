// A using-directive's names are seen, by unqualified lookup, as if declared
// in the nearest namespace enclosing both the directive and the nominated
// namespace ([namespace.udir]/2): inside cutlass::gemm::collective,
// `using namespace cute;` does not make `cute::gemm` (a function template)
// hide `cutlass::gemm`, nor `cute::detail` hide a nearer `detail`.
namespace cute { template <class T> void gemm(T) {} namespace detail { int x; } template <int...> int select(int) { return 0; } }
int select(int, int*);
namespace cutlass { namespace gemm { namespace detail { template <class S> using Tag_t = S; } } }
namespace cutlass { namespace gemm { namespace collective {
using namespace cute;
template <class StrideA> struct M {
  static constexpr bool X = sizeof(gemm::detail::Tag_t<StrideA>) == 4;
  // `::select` and `cute::select` (nominated at the global namespace) are one
  // overload set with a template in it.
  int f(int s) { return select<0, 1, 3>(s); }
};
} } }
namespace cutlass { namespace transform { namespace collective {
namespace detail { template <class A> constexpr bool uut() { return true; } }
template <class B> struct T { void f() { using namespace cute; static_assert(!detail::uut<B>(), ""); } };
} } }
