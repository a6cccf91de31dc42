template <typename F> void launch(F f);
void f(int* p, int n) {
    launch([=] __attribute__((device)) (int i) { p[i] = n; });
    launch([=] __attribute__((host)) __attribute__((device)) (int i) mutable -> int { return p[i]; });
    auto g = [p] __attribute__((device)) { return p[0]; };
}
