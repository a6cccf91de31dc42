// nvcc-flags:
template<class T> struct B { static_assert(sizeof(T) == 1, "one"); };
template<class T> struct D : public B<T> { int x; };
struct E : D<int> {};
D<short> d;
int main() { return 0; }
