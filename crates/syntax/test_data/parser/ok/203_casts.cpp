typedef int T;
struct P { int x, y; };
struct B { virtual ~B(); };
struct D : B {};
namespace n { struct V { V(int); }; }
int i;
double d;
void f(B* b) {
    i = (int)d;
    i = (T)d + (T)(d);
    i = (i);
    i = (unsigned int)d;
    P p = (P){1, 2};
    i = (const T*)0 == 0;
    i = int(d) + unsigned(d) + T(d) + T{1};
    n::V v = n::V(3);
    D* dp = static_cast<D*>(b);
    dp = dynamic_cast<D*>(b);
    const B* cb = const_cast<const B*>(b);
    long l = reinterpret_cast<long>(b);
    i = decltype(i)(d);
    i = (T)-1;
    i = (T())+1;
}
