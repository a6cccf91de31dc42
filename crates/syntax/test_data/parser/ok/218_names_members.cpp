namespace N { int v; template <typename T> T id(T); struct K { static int s; int m; template <int I> int get(); }; }
template <typename T> struct W { static int sv; };
int a = N::v + ::N::v + N::K::s;
int b = N::id<int>(3) + N::id(4);
int c = W<int>::sv;
template <typename T> int g(T t) { return t.template get<0>() + t.m + T::s; }
int d = N::K::s < 3 || N::K::s > 1;
