// cufront-corpus: std=c++17,c++20
// Exclusive prefix sum (Blelloch work-efficient scan) over arbitrary sizes:
// per-block scans, a recursive scan of block sums, and a uniform add.
#include <cstdio>
#include <vector>
#include <numeric>
#include <cassert>
#include <cuda_runtime.h>

namespace scan {

constexpr int kBlock = 512;          // threads per block
constexpr int kElems = 2 * kBlock;   // elements per block
constexpr int kBanks = 32;

__device__ __forceinline__ int conflict_free(int i) { return i + i / kBanks; }

__global__ void block_scan(const unsigned *in, unsigned *out, unsigned *block_sums, int n)
{
    __shared__ unsigned temp[kElems + kElems / kBanks];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * kElems;
    int ai = tid, bi = tid + kBlock;
    temp[conflict_free(ai)] = base + ai < n ? in[base + ai] : 0u;
    temp[conflict_free(bi)] = base + bi < n ? in[base + bi] : 0u;

    int offset = 1;
    for (int d = kElems >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            temp[conflict_free(b)] += temp[conflict_free(a)];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        if (block_sums)
            block_sums[blockIdx.x] = temp[conflict_free(kElems - 1)];
        temp[conflict_free(kElems - 1)] = 0;
    }
    for (int d = 1; d < kElems; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            unsigned t = temp[conflict_free(a)];
            temp[conflict_free(a)] = temp[conflict_free(b)];
            temp[conflict_free(b)] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[conflict_free(ai)];
    if (base + bi < n) out[base + bi] = temp[conflict_free(bi)];
}

__global__ void uniform_add(unsigned *data, const unsigned *increments, int n)
{
    const unsigned inc = increments[blockIdx.x];
    const int i = blockIdx.x * kElems + threadIdx.x;
    if (i < n) data[i] += inc;
    if (i + kBlock < n) data[i + kBlock] += inc;
}

inline int blocks_for(int n) { return (n + kElems - 1) / kElems; }

// Scans `d_in` into `d_out` (both length n), recursing on the block sums.
void exclusive_scan(const unsigned *d_in, unsigned *d_out, int n)
{
    const int blocks = blocks_for(n);
    if (blocks == 1) {
        block_scan<<<1, kBlock>>>(d_in, d_out, nullptr, n);
        return;
    }
    unsigned *sums = nullptr, *scanned = nullptr;
    cudaMalloc(&sums, blocks * sizeof(unsigned));
    cudaMalloc(&scanned, blocks * sizeof(unsigned));
    block_scan<<<blocks, kBlock>>>(d_in, d_out, sums, n);
    exclusive_scan(sums, scanned, blocks);
    uniform_add<<<blocks, kBlock>>>(d_out, scanned, n);
    cudaFree(sums);
    cudaFree(scanned);
}

} // namespace scan

int main()
{
    for (int n : {1, 100, 1024, 1025, 300000, 3000000}) {
        std::vector<unsigned> h(n);
        for (int i = 0; i < n; ++i)
            h[i] = (i * 7u + 3u) % 11u;
        std::vector<unsigned> expect(n);
        std::exclusive_scan(h.begin(), h.end(), expect.begin(), 0u);

        unsigned *d_in, *d_out;
        cudaMalloc(&d_in, n * sizeof(unsigned));
        cudaMalloc(&d_out, n * sizeof(unsigned));
        cudaMemcpy(d_in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
        scan::exclusive_scan(d_in, d_out, n);
        std::vector<unsigned> got(n);
        cudaMemcpy(got.data(), d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
        cudaFree(d_in);
        cudaFree(d_out);

        int errors = 0;
        for (int i = 0; i < n; ++i)
            errors += got[i] != expect[i];
        std::printf("n=%-8d errors=%d last=%u\n", n, errors, n ? got[n - 1] : 0u);
    }
    return 0;
}
