// nvcc-flags:
namespace n { struct S { S(int, int); ~S(); }; }
n::S s5( 1 + 2);
struct V { V(int *); V &operator=(const V &); };
V v1(2.0);
struct W { explicit W(int *); };
W w1(2.0);
