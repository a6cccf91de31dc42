// nvcc-flags: -std=c++20
struct P { int a; int b; int c; };
struct Q { P p; int z; };
P p2{.a = 1, 2, 3};
P p3{1, 2, .b = 3};
Q q{.p = {1, .c = 2}, .z = 3};
__global__ void k(int *out) { P l{.b = 1, .a = 2}; *out = l.a; }
