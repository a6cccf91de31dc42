namespace std { class type_info; }
struct E {};
int x;
void f() noexcept(noexcept(x + 1)) {
    try { throw E(); } catch (...) { throw; }
    bool b = noexcept(f());
    const std::type_info& t1 = typeid(int);
    const std::type_info& t2 = typeid(x + 1);
    x ? throw E{} : 0;
}
