// nvcc-flags:
void host_fn() { int unused; }
