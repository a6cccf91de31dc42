// nvcc-flags:
void host_fn() { __managed__ int m; (void)m; }
