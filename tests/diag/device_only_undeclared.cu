// nvcc-flags:
__device__ int dev_fn() {
#ifdef __CUDA_ARCH__
  return nope;
#else
  return 0;
#endif
}
