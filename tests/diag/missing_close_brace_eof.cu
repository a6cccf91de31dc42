// nvcc-flags:
int host_fn() {
  return 0;
