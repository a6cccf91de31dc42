int a, b, c, d;
int x1 = a + b * c - d / 2 % 3;
int x2 = a << 2 >> b;
int x3 = a < b == c > d;
int x4 = a & b ^ c | d && a || b;
bool x5 = a <= b && c >= d && a != b;
int x6 = (a, b);
void f() {
    a = b = c;
    a += 1, b -= 2, c *= 3, d /= 4;
    a %= 5; a <<= 1; a >>= 1; a &= b; a |= c; a ^= d;
    auto r = a <=> b;
}
