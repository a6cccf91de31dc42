// nvcc-flags:
void f(int);
void f(double);
void f(char *);
void g() { f(1L); }
