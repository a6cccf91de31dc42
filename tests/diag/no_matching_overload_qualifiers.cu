// nvcc-flags:
void f(const int *);
void f(volatile char *);
void g(const volatile int *p) { f(p); }
