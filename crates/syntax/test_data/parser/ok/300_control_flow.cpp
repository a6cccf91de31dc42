int g(int);
void f(int x, int* p) {
  if (x) { x++; } else if (x > 2) ; else { return; }
  if constexpr (sizeof(int) == 4) x = 1;
  if (int y = g(x); y > 0) x = y;
  if (int z = g(x)) x = z;
  switch (int k = g(x); k) { case 1 ... 5: break; case 6: case 7: x = 0; [[fallthrough]]; default: ; }
  while (x) continue;
  while (int w = g(x)) x -= w;
  do x--; while (x);
  for (x = 0; x < 10; x++) {}
  for (int i = 0, j = 1; i < j; ++i) {}
  for (;;) break;
  {}
  ;
}
