// nvcc-flags: -std=c++20
template <class T> concept Small = sizeof(T) <= 2;
template <Small T> void f(T) {}
template <class T> requires (sizeof(T) > 4) void g(T) {}
template <class T> void h(T) requires Small<T> {}
void host_fn() { f(1.0); g('c'); h(1); f((short)1); }
