// nvcc-flags:
unsigned long long operator"" abc(unsigned long long v) { return v; }
template <char...> unsigned long long operator""tpl() { return 1; }
unsigned long long operator""_fine(unsigned long long v) { return v; }
unsigned long long a = 12abc;
unsigned long long b = 3_fine;
unsigned long long c = 4_none;
void f() { const char *s = "x"qq; (void)s; }
