// nvcc-flags:
int g();
void host_fn() { g() = 2; }
