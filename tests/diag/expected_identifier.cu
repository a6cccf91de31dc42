// nvcc-flags:
int host_fn() { struct { int; } s; return 0; }
