// nvcc-flags:
int one(int a);
int host_fn() { return one(1, 2); }
