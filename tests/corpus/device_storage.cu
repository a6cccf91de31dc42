// cufront-corpus: std=c++17,c++20
// Device storage whose host shadow needs the declaration's meaning, not its
// spelling: a class-type global whose default initialization runs code
// (the module id's key), a namespace-scope __device__ operator (a dummy
// body on the host), dynamic shared memory declared extern, __constant__
// and __device__ arrays whose bound comes from the initializer (numbers,
// nested braces, brace elision, string literals). (Variable templates in
// device memory are a focused program of host_output.rs: the host object
// holds the instances device code uses, which the semantic model does not
// list yet.)
#include <cstdio>
#include <cuda_runtime.h>

struct Registry {
    Registry() : count(0) {}
    ~Registry() { std::printf("registry closed with %d entries\n", count); }
    int count;
};

// First eligible definition in the file: no initializer, but its
// default initialization calls Registry::Registry().
Registry registry;

struct Cplx {
    float re, im;
};

__device__ Cplx operator*(Cplx a, Cplx b)
{
    Cplx c;
    c.re = a.re * b.re - a.im * b.im;
    c.im = a.re * b.im + a.im * b.re;
    return c;
}

__device__ Cplx operator+(Cplx a, Cplx b) { return Cplx{a.re + b.re, a.im + b.im}; }

extern __shared__ unsigned char dyn_bytes[];
extern __shared__ float dyn_floats[];

__constant__ float c_weights[] = {0.25f, 0.5f, 0.25f};
__constant__ int c_grid[][2] = {{1, 2}, {3, 4}, {5, 6}};
__constant__ int c_flat[][3] = {1, 2, 3, 4, 5, 6, 7};
__constant__ char c_tag[] = "stencil" "-v2";
__device__ unsigned d_masks[] = {0x1u, 0x2u, 0x4u, 0x8u, 0x10u};
__device__ const int d_primes[] = {2, 3, 5, 7, 11};

__global__ void mix(Cplx *z, float *out, int n)
{
    float *scratch = dyn_floats;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[i] = z[i] * z[i] + Cplx{c_weights[i % 3], 0.0f};
        scratch[threadIdx.x] = z[i].re + c_grid[i % 3][1] + c_flat[i % 3][2] + c_tag[i % 10];
        out[i] = scratch[threadIdx.x] + d_masks[i % 5] + d_primes[i % 5];
        dyn_bytes[threadIdx.x] = (unsigned char)i;
    }
}

int main()
{
    registry.count = 3;
    const int n = 8;
    Cplx *z = nullptr;
    float *out = nullptr;
    if (cudaMalloc(&z, n * sizeof(Cplx)) != cudaSuccess || cudaMalloc(&out, n * sizeof(float)) != cudaSuccess) {
        std::printf("no device\n");
        return 0;
    }
    mix<<<1, n, n * sizeof(float)>>>(z, out, n);
    float host[n];
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    std::printf("%f\n", host[0]);
    cudaFree(z);
    cudaFree(out);
    return 0;
}
