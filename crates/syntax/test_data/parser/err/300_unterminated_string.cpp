void f() {
  x = "abc;
}
