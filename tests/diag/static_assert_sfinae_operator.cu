// nvcc-flags:
// CuTe's mixed static-dynamic `operator*(U, C<t>)`, enabled only for t == 0
// by a defaulted pointer parameter: `32 * C<128>{}` is the built-in product.
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <auto v> struct C {
  static constexpr auto value = v;
  using value_type = decltype(v);
  __host__ __device__ constexpr operator value_type() const noexcept { return value; }
};
template <class U, auto t, typename enable_if<(t == 0)>::type* = nullptr>
__host__ __device__ constexpr C<0> operator*(U, C<t>) { return {}; }
static_assert(32 * C<128>{} == 4096, "built-in");
static_assert(32 * C<0>{} == 0, "template");
static_assert(32 * C<2>{} == 65, "fails");
