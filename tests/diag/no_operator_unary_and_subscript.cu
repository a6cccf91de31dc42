// nvcc-flags:
struct S {};
void f(S s, int i, double d, int *p) {
  ++s;
  s++;
  --s;
  s  --;
  *s;
  s[1];
  i[s];
  d[s];
  s[p];
  p[s];
  s[s];
}
