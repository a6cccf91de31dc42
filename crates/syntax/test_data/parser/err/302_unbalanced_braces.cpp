void f(int x) {
  if (x) { x++;
  while (x) {
}
