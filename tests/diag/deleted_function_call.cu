// nvcc-flags:
void f(int) = delete;
void host_fn() { f(1); }
