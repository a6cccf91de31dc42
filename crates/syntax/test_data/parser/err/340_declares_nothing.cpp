int;
struct A { int; double; };
unsigned;
struct B { int x; };
void f() { struct { int; } s; (void)s; }
