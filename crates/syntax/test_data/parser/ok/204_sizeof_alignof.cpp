struct S { int a; };
S s;
int x;
template <typename... Ts> int count() { return sizeof...(Ts); }
unsigned long a1 = sizeof(S);
unsigned long a2 = sizeof s;
unsigned long a3 = sizeof(s);
unsigned long a4 = sizeof(x) + 1;
unsigned long a5 = sizeof(int*) * 2;
unsigned long a6 = alignof(S);
unsigned long a7 = __alignof__(S) + __alignof__ x;
unsigned long a8 = sizeof s.a;
