void f(int x) {
  x = 1
  x = 2;
  return x
}
