// nvcc-flags:
int host_fn() { int i = 0; return i.x; }
