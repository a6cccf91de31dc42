struct A { template <typename T> T get(); int v; A* self(); };
template <typename T> struct B { T t; void f() { this->t.template get<int>(); t.v++; } };
void g(A a, A* pa) {
    int x = a.get<int>() + pa->get<long>();
    bool y = a.v < 3 && a.v > 1;
    bool z = a.v < x, w = a.v > x;
    pa->self()->self()->v = a.self()[0].v;
    a.~A();
    pa->A::~A();
}
int cond(A a, int b, int c, int d) { return a.v < b && c > (d); }
