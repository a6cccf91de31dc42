// nvcc-flags:
struct S {};
namespace ns { struct T {}; enum E { e }; typedef int myint; }
enum class SE { x };
namespace w { struct W {}; W operator+(W, int); }
using w::W;
struct C { operator int() const; };
struct M { M operator-(int) const; };
struct F { friend F operator*(F, F); };
void f(S s, const S &cr, int *p, ns::E en, ns::myint mi, SE se, W w, C c, M m, F fr, double d) {
  s + 1;
  1 + cr;
  (s) <  (p);
  en == s;
  s - mi;
  se && s;
  -s;
  1 + (-s);
  s += d;
  !s;
  w + 1;
  c + 1;
  m - 1;
  fr * fr;
  s + ns::T();
}
