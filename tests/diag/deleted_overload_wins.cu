// nvcc-flags:
void take(int);
void take(double) = delete;
void host_fn() { take(2.0f); take(1); }
