// The fuzz campaign's semantic target timed out on a 478-byte unit whose
// class has a data member of type decltype(a) named a: layout lowered the
// type, the operand found the member, whose type it lowered again, down to
// the instantiation depth limit, each level retrying its operand.
struct S { decltype(a) a; };
struct T { decltype(b) a; decltype(a) b; };
template <class U> struct W { decltype(w) w; U u; };
W<int> wi;
int n = sizeof(S) + sizeof(T) + sizeof(wi);
