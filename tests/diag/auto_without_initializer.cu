// nvcc-flags:
void host_fn() { auto x; }
