// nvcc-flags:
template <class T struct S {};
