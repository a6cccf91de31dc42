// cufront-corpus: std=c++17,c++20
// Byte histograms: global atomics, per-block privatized shared-memory bins,
// and a per-warp variant; input drawn from <random> on the host.
#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBins = 256;

__global__ void histogram_global(const uint8_t *data, size_t n, unsigned int *bins)
{
    size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    size_t stride = size_t(blockDim.x) * gridDim.x;
    for (; i < n; i += stride)
        atomicAdd(&bins[data[i]], 1u);
}

__global__ void histogram_shared(const uint8_t *data, size_t n, unsigned int *bins)
{
    __shared__ unsigned int local[kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    const uchar4 *data4 = reinterpret_cast<const uchar4 *>(data);
    size_t n4 = n / 4;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(blockDim.x) * gridDim.x) {
        uchar4 v = data4[i];
        atomicAdd(&local[v.x], 1u);
        atomicAdd(&local[v.y], 1u);
        atomicAdd(&local[v.z], 1u);
        atomicAdd(&local[v.w], 1u);
    }
    if (blockIdx.x == 0)
        for (size_t i = n4 * 4 + threadIdx.x; i < n; i += blockDim.x)
            atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < kBins; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}

template <int WARPS>
__global__ void histogram_per_warp(const uint8_t *data, size_t n, unsigned int *bins)
{
    __shared__ unsigned int warp_bins[WARPS][kBins];
    const int warp = threadIdx.x / 32;
    for (int b = threadIdx.x; b < WARPS * kBins; b += blockDim.x)
        (&warp_bins[0][0])[b] = 0;
    __syncthreads();
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(blockDim.x) * gridDim.x)
        atomicAdd(&warp_bins[warp][data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        unsigned sum = 0;
        for (int w = 0; w < WARPS; ++w)
            sum += warp_bins[w][b];
        atomicAdd(&bins[b], sum);
    }
}

using Bins = std::array<unsigned, kBins>;

template <typename Launch>
Bins run(const uint8_t *d_data, size_t n, Launch launch)
{
    unsigned *d_bins;
    cudaMalloc(&d_bins, kBins * sizeof(unsigned));
    cudaMemset(d_bins, 0, kBins * sizeof(unsigned));
    launch(d_data, n, d_bins);
    Bins out{};
    cudaMemcpy(out.data(), d_bins, sizeof out, cudaMemcpyDeviceToHost);
    cudaFree(d_bins);
    return out;
}

int main()
{
    const size_t n = (1u << 22) + 3;
    std::vector<uint8_t> h(n);
    std::mt19937_64 gen(2024);
    std::binomial_distribution<int> dist(255, 0.3);
    for (auto &x : h)
        x = static_cast<uint8_t>(dist(gen));
    Bins ref{};
    for (auto x : h)
        ref[x]++;

    uint8_t *d;
    cudaMalloc(&d, n);
    cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice);

    Bins a = run(d, n, [](const uint8_t *p, size_t m, unsigned *b) { histogram_global<<<256, 256>>>(p, m, b); });
    Bins s = run(d, n, [](const uint8_t *p, size_t m, unsigned *b) { histogram_shared<<<128, 256>>>(p, m, b); });
    Bins w = run(d, n, [](const uint8_t *p, size_t m, unsigned *b) { histogram_per_warp<8><<<64, 256>>>(p, m, b); });
    cudaFree(d);

    std::printf("global %s, shared %s, per-warp %s\n", a == ref ? "ok" : "BAD", s == ref ? "ok" : "BAD",
                w == ref ? "ok" : "BAD");
    return (a == ref && s == ref && w == ref) ? 0 : 1;
}
