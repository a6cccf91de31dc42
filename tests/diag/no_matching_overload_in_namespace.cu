// nvcc-flags:
namespace n { void f(int *); void f(float *);
void g() { double d; f(&d); } }
