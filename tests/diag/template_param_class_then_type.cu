// nvcc-flags:
template <class T void f();
