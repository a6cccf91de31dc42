// nvcc-flags:
constexpr int cf(int x) { return x; }
template <class T> __global__ void kern(T t) { int x = 0; int a = cf(1); int b = cf(t); int c = cf(1 + 2); int d = cf(x); int e = cf(-x); }
void h() { kern<<<1,1>>>(1); kern<<<1,1>>>('c'); }
 template <class T> __global__ void kern3(T t) { int a = cf(t); int b = cf(2); }
void h2() { kern3<<<1,1>>>(1); kern<<<1,1>>>(1);}
