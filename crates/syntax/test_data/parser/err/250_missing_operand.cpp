int a, b;
int x1 = a + ;
int x2 = a * / b;
void f() {
    a = ;
    b = a ? : ;
    a = b + (;
    a = -;
}
