// nvcc-flags:
struct A { virtual void f() = 0; };
A a;
