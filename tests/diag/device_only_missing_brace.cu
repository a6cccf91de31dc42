// nvcc-flags:
#ifdef __CUDA_ARCH__
__device__ int dev_fn() {
  return 0;
#endif
