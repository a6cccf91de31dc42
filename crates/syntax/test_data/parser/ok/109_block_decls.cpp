struct T { T(); T(int); int m; };
int v;
void f() {
    T(a);
    T b();
    T c(v);
    T d(1, 2);
    T * e;
    v * v;
    T(v).m;
    T(1);
    T{2};
    int(v);
    int(3) + 1;
    static int s = 0;
    const T& r = T();
    struct L { int x; } l;
    using U = T;
    U u;
    typedef T TT;
    TT tt;
    auto [x, y] = foo();
    for (int i = 0; i < 3; ++i) {}
    for (auto& q : arr) {}
    if (int z = v) {}
    unknown_t un;
}
