// nvcc-flags: --diag-warn 68
unsigned u = -1;
int host_fn() { return nope; }
