// nvcc-flags:
void host_fn(int x) { if x > 0 { } }
