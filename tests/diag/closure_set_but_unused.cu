// nvcc-flags:
void h1() { auto m = [] {}; (void)m; }
void h2(int p) { auto m = [p] { return p; }; (void)m; }
void h3() { int y = 1; auto m = [&y] { return y; }; (void)m; }
__device__ void d1() { auto m = [] {}; (void)m; }
__device__ void d2(int p) { auto m = [=] { return p; }; (void)m; }
void h4() { auto m = [] {}; }
