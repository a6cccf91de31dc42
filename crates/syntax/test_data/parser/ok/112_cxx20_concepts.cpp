template<class T> concept Integral = __is_integral(T);
template<class T> concept Addable = requires(T a, T b) { a + b; };
template<Integral T> T twice(T x) { return x * 2; }
template<class T> requires Integral<T> && Addable<T> void g(T);
template<class T> void h(T) requires (sizeof(T) > 1);
void ab(Integral auto x);
Integral auto y = 3;
template<typename T> struct W { W() requires Integral<T> = default; };
namespace std { template<class T> concept same = true; }
template<std::same<int> T> void k();
auto operator<=>(const W<int>&, const W<int>&) = default;
