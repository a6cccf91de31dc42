// nvcc-flags:
void f(int, int *);
void f(float *, int = 0);
void f(char, char, char);
void f(double *, double *);
void g() { int i = 0; f(i, 2.5); }
