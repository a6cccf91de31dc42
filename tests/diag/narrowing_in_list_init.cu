// nvcc-flags:
struct P { int a; };
P p{2.5};
