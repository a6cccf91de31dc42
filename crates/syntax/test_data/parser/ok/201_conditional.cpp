int a, b, c, d;
int x1 = a ? b : c;
int x2 = a ? b : c ? d : a;
int x3 = a ? b = 1, c : d = 2;
int x4 = a ?: b;
void f() { a ? b : c = d; }
