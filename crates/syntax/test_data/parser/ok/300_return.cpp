int x;
void f() { return; }
