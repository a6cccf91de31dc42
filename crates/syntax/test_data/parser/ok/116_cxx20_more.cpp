struct P { int x; auto operator<=>(const P&) const = default; bool operator==(const P&) const = default; };
struct Aw { bool await_ready(); void await_suspend(int); int await_resume(); Aw operator co_await(); };
template<class T> concept C1 = true;
template<C1 T, C1 auto N> struct Z {};
template<class T> requires C1<T> struct R { void f() requires C1<int>; };
constexpr auto lam = []<class T>(T t) requires C1<T> { return t; };
consteval int ce() { return 1; }
constinit int ci = 2;
char8_t c8 = u8'a';
template<class T> struct Ctad { Ctad(T); };
Ctad(const char*) -> Ctad<int>;
void use(C1 auto&& x, const C1 auto* y);
