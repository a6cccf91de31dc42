// nvcc-flags:
struct B { void f(); };
struct D : B { void f() override; };
