void f(int x) {
  do x++; (x);
  try { }
  switch x { }
  case 1 x = 2;
  asm(x);
  if (x) else x;
}
