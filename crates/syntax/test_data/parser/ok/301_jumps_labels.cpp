void f(int x) {
  __label__ done, again;
again:
  if (x--) goto again;
  void* target = &&done;
  goto *target;
  [[maybe_unused]] inner: x++;
done:
  __attribute__((unused)) tail: ;
  return;
}
int h() { return {}; }
int k(int y) { lbl: }
