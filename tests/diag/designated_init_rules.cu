// nvcc-flags: -std=c++17
struct P { int a; int b; int c; };
P p1{.b = 1, .b = 2};
P p2{.a = 1, 2, 3};
P p3{1, 2, .b = 3};
P p4{.b = 1, .c = 2, .a = 3, .b = 4};
union U { int i; float f; };
U u{.f = 1, .i = 2};
struct Q { P p; int z; };
Q q{.z = 1, .p = {.b = 1, .a = 2}};
P g() { return {.c = 1, .a = 2}; }
void k(P);
__device__ void m() { k({.b = 1, .a = 2}); }
