// nvcc-flags:
__shared__ int s_ns;
int g;
void h1() { int *p = 0; (void)p; }
void h2() { int *p = &g; (void)p; }
void h3() { int *p = &s_ns; (void)p; }
void h4() { int *p = &s_ns; p++; }
void h5() { int *p = &s_ns; int *q = p; (void)q; }
void b2() { int x = 1; static_cast<void>(x); }
void b3() { int x = 1; if (x) {} }
__device__ void d2() { int *p = 0; (void)p; }
__host__ __device__ void hd2() { int *p = 0; (void)p; }
void b6(int y) { int x = y; (void)(x + 1); }
void p1(int p) { (void)p; }
void p2(int p) { p = 3; (void)p; }
void l1() { int x; (void)x; }
void l2() { int x; x = 2; (void)x; }
