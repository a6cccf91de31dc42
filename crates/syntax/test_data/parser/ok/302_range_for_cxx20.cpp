struct P { int first; int second; };
struct M { P* begin(); P* end(); };
void f(M m, int (&a)[3]) {
  for (auto& kv : m) kv.first = kv.second;
  for (int e : a) (void)e;
  for (const auto& e : {1, 2, 3}) (void)e;
  for (int n = 0; auto e : a) n += e;
  if consteval { } else { }
  if !consteval { }
}
