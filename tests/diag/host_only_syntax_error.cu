// nvcc-flags:
int host_fn() {
#ifndef __CUDA_ARCH__
  return 1
#endif
}
