template <class T> struct S { int k; bool ok() const; explicit operator bool() const; };
void f(int a) {
    if (S<int> s{a, 1}) {}
    if (S<int> s{a}; s.ok()) {}
    while (S<int> t{a}) {}
    switch (S<int> u{a}; u.k) { default: break; }
    for (S<int> v{a}; S<int> w{a};) {}
}
