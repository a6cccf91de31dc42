// nvcc-flags:
void host_fn() { else { } }
