// nvcc-flags: -std=c++20
template <class T> concept Small = sizeof(T) <= 2;
template <Small T> void f(T) {}
void host_fn() { f(1.0); }
