int f(int a, int b = 2, ...);
auto g() -> int;
auto h(int x) -> decltype(x) { return x; }
void t() throw();
void n() noexcept(sizeof(int) == 4);
int (*getfp(int))(double);
void (*signal(int sig, void (*func)(int)))(int);
int arr(int a[], int b[10], int (*c)[3], int (&d)[4]);
void pk(int __restrict__ * p, const char *__restrict s);
extern int atexit (void (*__func) (void)) noexcept (true) __attribute__ ((__nonnull__ (1)));
extern int foo (int) __asm__ ("" "foo_impl") __attribute__ ((__nothrow__ , __leaf__));
static inline __attribute__((always_inline)) int fi(void) { return 0; }
struct S { S(); int m; int get() const; static S make(); operator bool() const; };
S::S() : m(0) {}
int S::get() const { return m; }
S S::make() { return S(); }
S::operator bool() const { return m != 0; }
void vexing() { S s(); int i(int(3)); S t(s); }
void tryf() try { } catch (...) { }
