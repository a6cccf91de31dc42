// nvcc-flags:
struct S {};
void f(S s, int i, double d, int *p, bool b, const int ci) {
  i += s;
  d %= s;
  p -= s;
  b *= s;
  i <<= s;
  ci += s;
}
