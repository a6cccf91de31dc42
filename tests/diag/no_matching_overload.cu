// nvcc-flags:
void take(int *);
void host_fn() { take(1.5); }
