struct S {
    int v;
    void g() {
        auto a = [this] { return v; };
        auto b = [*this]() mutable { v = 1; };
    }
};
template <typename... Ts> void use(Ts... xs) {
    auto p = [xs...] { return 0; };
    auto q = [...ys = xs] { return 0; };
}
void f(int x, int y) {
    auto a = [] {};
    auto b = [=] { return x; };
    auto c = [&] { return x; };
    auto d = [x, &y] (int z) { return x + y + z; };
    auto e = [z = x + 1, &w = y] () -> int { return z + w; };
    auto g = [=, &y] () mutable noexcept { x = y; };
    auto h = [] (auto v) constexpr { return v; };
    auto i = [] <typename T> (T t) { return t; };
    auto j = [] [[nodiscard]] () { return 1; };
    int r = [](int k) { return k * 2; }(3);
    auto l = [] () noexcept(true) -> decltype(auto) { return 1; };
}
struct r {};
int shadow(int n) { auto l = [r = n] { return r * 2; }; return l(); }
