// nvcc-flags:
__device__ int dev_fn() {
#ifdef __CUDA_ARCH__
  return 0x;
#else
  return 0;
#endif
}
