int a, b;
int f(int);
void g() {
    a = (b + 1;
    a = f(b, ;
    a = f(b c);
    a = ((b);
    a = b[1;
}
void h() { a = 1; }
