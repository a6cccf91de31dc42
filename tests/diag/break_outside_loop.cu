// nvcc-flags:
void host_fn() { break; }
