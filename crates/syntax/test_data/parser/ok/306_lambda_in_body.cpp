template <class T> T id(T v) { return v; }
int f() {
  auto l = [](int x) { if (x) return x; for (;;) { break; } return 0; };
  return l(id<int>(1));
}
