// nvcc-flags:
namespace N { struct A { virtual void f() = 0; virtual void g() = 0; }; }
struct B : N::A { void f() override; };
struct C : B { void g() override; };
C c;
B b;
