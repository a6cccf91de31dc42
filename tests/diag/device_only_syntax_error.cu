// nvcc-flags:
__device__ int dev_fn() {
#ifdef __CUDA_ARCH__
  int x = 1
#endif
  return 0;
}
