// nvcc-flags:
void f(int);
void f(double);
void f(char *);
void g(float);
void g(long);
void h(int, double);
void h(double, int);
void k(int);
void k(unsigned);
void m(short);
void m(float);
void n(long, int);
void n(int, long);
void calls(short s, float x, char c) {
  f(1L);
  g(2);
  h(1, 2);
  k(3L);
  m(c);
  m(4.0);
  f(x);
  n(1, 2);
  g(s);
}
