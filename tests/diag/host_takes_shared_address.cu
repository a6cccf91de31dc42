// nvcc-flags:
__shared__ int s_ns;
void host_fn() { int *p = &s_ns; (void)p; }
