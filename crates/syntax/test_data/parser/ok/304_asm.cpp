int f(int y) {
  int x;
  asm("nop");
  asm volatile ("mov %1, %0" : "=r"(x) : "r"(y) : "memory");
  __asm__ __volatile__ ("" ::: "memory");
  __asm ("" : [out] "=r"(x) : [in] "r"(y), "m"(y));
  asm goto ("jmp %l0" :::: fail);
  asm inline volatile ("" "nop" : : "r"(y) : "cc", "memory" : fail);
  return x;
fail:
  return -1;
}
