// nvcc-flags:
struct B { virtual void f() final; };
struct D : B { void f(); };
