void f(int x) {
  try { }
}
void g(int x) {
  switch x { }
}
void i(int x) {
  asm(x);
}
void j(int x) {
  if (x) else x;
}
void k(int x) {
  if (x { } x = 1;
}
void l(int x) {
  while x) { }
}
