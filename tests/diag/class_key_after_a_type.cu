// nvcc-flags:
int class = 1;
void f() { int struct = 2; }
struct A { int union; };
struct;
