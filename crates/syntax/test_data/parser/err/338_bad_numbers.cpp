int a = 0x + 08 + 0b12 + 1u2;
double b = 1e+ + 1.2.3 + 2.5E- + 0x1.0;
int c = 1'2'' + 0x'1;
char d = '';
int e = 1 @ 2;
