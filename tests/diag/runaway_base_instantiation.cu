// nvcc-flags:
template<int N> struct S : S<N-1> { int x; };
template<> struct S<0> { int y; };
S<2000> s;
int main() { return sizeof(s) > 0; }
