// nvcc-flags: --diag-suppress 65
int host_fn() { int x = 1 return x; }
