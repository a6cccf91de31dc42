// cufront-corpus: std=c++17,c++20
// Variables in the CUDA memory spaces: __device__ globals and arrays,
// __constant__ tables and structs, __managed__ counters, static __shared__
// and extern dynamic shared memory; symbol copies and symbol addresses.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

struct Params {
    float scale;
    float offset;
    int iterations;
    int flags[4];
};

__constant__ Params c_params;
__constant__ float c_lut[256];
__device__ int d_counter;
__device__ float d_accum[64];
__device__ const char *d_name = nullptr;
__managed__ int m_done = 0;
__managed__ float m_results[16];

namespace detail {
__device__ unsigned long long d_ticks;
static __device__ int d_private_state = 7;
} // namespace detail

__device__ __noinline__ float lookup(float x)
{
    int i = static_cast<int>(x * 255.0f);
    i = i < 0 ? 0 : (i > 255 ? 255 : i);
    return c_lut[i];
}

__global__ void transform(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    for (int k = 0; k < c_params.iterations; ++k)
        v = lookup(v) * c_params.scale + c_params.offset;
    out[i] = v;
    atomicAdd(&d_counter, 1);
    atomicAdd(&d_accum[i % 64], v);
}

__global__ void shared_mix(const float *in, float *out, int n)
{
    __shared__ float fixed[128];
    extern __shared__ float dynamic[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    fixed[threadIdx.x % 128] = v;
    dynamic[threadIdx.x] = v * 2.0f;
    __syncthreads();
    if (i < n)
        out[i] = fixed[(threadIdx.x + 1) % 128] + dynamic[blockDim.x - 1 - threadIdx.x];
    if (threadIdx.x == 0) {
        detail::d_ticks += clock64() & 0xff;
        detail::d_private_state++;
    }
}

__global__ void finish(int blocks)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        for (int i = 0; i < 16; ++i)
            m_results[i] = d_accum[i];
        m_done = blocks;
    }
}

int main()
{
    Params p{};
    p.scale = 0.9f;
    p.offset = 0.05f;
    p.iterations = 3;
    std::memset(p.flags, 0, sizeof p.flags);
    cudaMemcpyToSymbol(c_params, &p, sizeof p);

    std::vector<float> lut(256);
    for (int i = 0; i < 256; ++i)
        lut[i] = i / 255.0f;
    cudaMemcpyToSymbol(c_lut, lut.data(), lut.size() * sizeof(float));

    int zero = 0;
    cudaMemcpyToSymbol(d_counter, &zero, sizeof zero);
    float *accum_ptr = nullptr;
    cudaGetSymbolAddress(reinterpret_cast<void **>(&accum_ptr), d_accum);
    cudaMemset(accum_ptr, 0, 64 * sizeof(float));
    size_t accum_size = 0;
    cudaGetSymbolSize(&accum_size, d_accum);

    const int n = 4096;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    transform<<<n / 256, 256>>>(in, out, n);
    shared_mix<<<n / 256, 256, 256 * sizeof(float)>>>(out, in, n);
    finish<<<1, 32>>>(n / 256);
    cudaDeviceSynchronize();

    int counter = 0;
    cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter);
    std::printf("counter=%d accum bytes=%zu done=%d first=%f\n", counter, accum_size, m_done, m_results[0]);
    cudaFree(in);
    cudaFree(out);
    return counter == n ? 0 : 1;
}
