struct A { int x; struct { int y[4]; } in; };
typedef __builtin_va_list va_list;
unsigned long o1 = __builtin_offsetof(A, x);
unsigned long o2 = __builtin_offsetof(A, in.y[3]);
int va(va_list ap) { return __builtin_va_arg(ap, int); }
float bc(int i) { return __builtin_bit_cast(float, i); }
int tc = __builtin_types_compatible_p(int, long);
bool same = __is_same(int, long) || __is_base_of(A, A);
bool ctor = __is_constructible(A, int, int) && __is_trivially_copyable(A);
bool triv = __has_trivial_copy(A) && __has_virtual_destructor(A);
template <typename T, typename... Args> bool c = __is_constructible(T, Args...);
int ce = __builtin_choose_expr(1, 2, 3);
long ex = __builtin_expect(tc, 0);
