// nvcc-flags:
void host_fn() { const int x = 1; x = 2; }
