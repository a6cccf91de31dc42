// nvcc-flags:
void host_fn() { goto end; int x = 1; end: (void)0; }
