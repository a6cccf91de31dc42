// nvcc-flags:
struct S { S(int, int); };
S s1(1);
S s2(1, 2, 3);
S s3{1};
S s4 = S(1);
void f() { S a(2); S b = S(3); S *p = new S(4); }
struct T { T(int *); T(const char *, int = 0); };
T t1(1.5);
struct U { U(int *); U(const U &); };
U u1(1.0);
