// nvcc-flags:
void host_fn() { int x; x = 1; }
