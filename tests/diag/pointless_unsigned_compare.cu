// nvcc-flags:
bool host_fn(unsigned u) { return u < 0; }
