// nvcc-flags:
void host_fn() { continue; }
