[[nodiscard]] int a();
[[using gnu: always_inline, hot]] inline void b() {}
[[deprecated("x")]] [[maybe_unused]] static int c;
__attribute__((global)) void kernel(int* p);
__attribute__((device)) __attribute__((host)) int hd(int);
__attribute__((global)) __attribute__((launch_bounds(256, 2))) void k2();
int d __attribute__((unused)) = 0;
void e() __attribute__((noreturn));
struct __attribute__((device_builtin)) __attribute__((aligned(8))) int2_ { int x, y; };
alignas(16) char buf[64];
alignas(double) char buf2[8];
int f [[gnu::unused]];
