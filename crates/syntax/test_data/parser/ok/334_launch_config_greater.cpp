// Inside `<<<…>>>` only `>>>` closes: `>` is greater-than, `>>` a shift.
__attribute__((global)) void k(int) {}
void h(int n) {
  k<<<1, 1, n > 32 ? 4 : 0, 0>>>(1);
  k<<<1, 1, n >> 2, 0>>>(1);
  k<<<1, (n > 2)>>>(1);
}
