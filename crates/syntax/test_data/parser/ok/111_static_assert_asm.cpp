static_assert(sizeof(int) == 4, "int is 4 bytes");
static_assert(true);
asm("nop");
__asm__(".symver foo,foo@VER");
struct S { static_assert(sizeof(S*) == 8, ""); };
