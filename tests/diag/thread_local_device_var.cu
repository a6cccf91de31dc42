// nvcc-flags:
thread_local __device__ int t;
