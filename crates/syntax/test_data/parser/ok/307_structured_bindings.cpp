struct P { int first; int second; };
struct M { P* begin(); P* end(); };
void f(M m, P p) {
  for (auto& [k, v] : m) k = v;
  for (const auto [a, b] : m) (void)(a + b);
  auto [x, y] = p;
  if (auto [c, d] = p; c < d) x = c;
}
