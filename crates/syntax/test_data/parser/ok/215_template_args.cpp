template <int N> struct I {};
template <bool B> struct J {};
template <typename T> struct V {};
I<(3 > 2)> a;
I<1 + 2> b;
J<(1 >> 1) == 0> c;
V<V<int>> d;
V<I<3>> e;
J<3 < 2> f;
bool g = 3 > 2 && 4 >= 1;
int h = 8 >> 1;
void q(int x) { x >>= 1; }
J<3 >= 2> ge;
