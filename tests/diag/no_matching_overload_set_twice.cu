// nvcc-flags:
void f(int *);
void f(char *);
void g() { long l = 1; f(l); f(&l); }
