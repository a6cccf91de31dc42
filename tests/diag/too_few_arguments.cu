// nvcc-flags:
int add(int a, int b);
int host_fn() { return add(1); }
