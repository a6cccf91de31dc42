int a, b;
void g() {
    a = b @ 1;
    a = b $;
    a = b a;
    a = static_cast<int>;
    a = sizeof;
}
void h() { a = 2; }
