struct S1 { int a };
struct S2 { void f() };
struct S3 { int a int b; };
void g() { int x = 1 return; }
