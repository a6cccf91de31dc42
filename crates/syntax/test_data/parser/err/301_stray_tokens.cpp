void f(int x) {
  ) ;
  for (;;) ]
  x = 3;
}
void g() { int y = 1; goto ; }
