// nvcc-flags: -std=c++20
struct P { int a; int b; };
P p{.b = 1, .a = 2};
