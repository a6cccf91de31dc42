template<class T> struct Base { Base(T); };
template<class... Ts> struct X : Base<Ts>... {
    int m;
    X(Ts... ts) : Base<Ts>(ts)..., m{1} {}
    template<class U> X(U&& u, int) noexcept(noexcept(U())) : X(static_cast<U&&>(u)) {}
    template<class U> explicit(sizeof(U) > 1) operator U() const;
    template<class U> friend void swap(X<U>&, X<U>&);
    template<class> friend struct Y;
};
template<class... Ts> void fwd(Ts&&... args);
template<template<class, class = void> class TT = Base, class... Rest> struct TT2 {};
using FP = void(*)(int);
using FN = int(int) noexcept;
typedef int (*pf)(int);
auto arr3() -> int(*)[3];
void rq() &&;
void def(int x = [] { return 1; }(), int y = 2);
int (*const fpc)(int) = nullptr;
struct Bits { int a : 3 = 1; unsigned b : 4 {2}; };
enum Shift : unsigned { S1 = 1 << 2, S2 = S1 >> 1 };
namespace [[deprecated]] old_ns {}
void blocks() {
    struct Bits b;
    enum Shift s = S1;
    class X<int>* px;
    Base<int> bi(3);
    Base<int> bf(Base<int>(int));
    static_assert(sizeof(b) > 0, "");
    typedef Base<int> BI;
    BI* pbi;
}
