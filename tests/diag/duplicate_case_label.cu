// nvcc-flags:
int host_fn(int v) { switch (v) { case 1: return 1; case 1: return 2; } return 0; }
