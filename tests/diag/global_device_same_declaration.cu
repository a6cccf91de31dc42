// nvcc-flags:
__global__ __device__ void a1();
__host__ __device__ __global__ void a2();
__device__ void a3();
__host__ void a3();
void a4();
__global__ void a4();
