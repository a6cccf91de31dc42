// nvcc-flags:
struct A { virtual void f(int); virtual void h() final; };
struct B : A {};
struct C : B { void f(int) override; void f(long) override; void h(); };
template <class T> struct D : T { void g() override; };
struct E { virtual ~E(); };
struct F : E { ~F() override; };
