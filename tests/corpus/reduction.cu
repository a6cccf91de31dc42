// cufront-corpus: std=c++17,c++20
// Parallel reductions: shared-memory tree, warp shuffles, templated block
// size and operator, a final atomic combine, and a two-pass variant.
#include <cstdio>
#include <cstdint>
#include <numeric>
#include <vector>
#include <limits>
#include <cuda_runtime.h>

template <typename T>
struct Sum {
    __device__ __host__ static T identity() { return T(0); }
    __device__ __host__ T operator()(T a, T b) const { return a + b; }
};

template <typename T>
struct Max {
    __device__ __host__ static T identity() { return std::numeric_limits<T>::lowest(); }
    __device__ __host__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T v, Op op)
{
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
        v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

template <int BLOCK, typename T, typename Op>
__global__ void block_reduce(const T *in, T *partial, size_t n, Op op)
{
    static_assert(BLOCK % 32 == 0, "block size must be a multiple of the warp size");
    __shared__ T warp_sums[BLOCK / 32];
    T acc = Op::identity();
    for (size_t i = blockIdx.x * size_t(BLOCK) + threadIdx.x; i < n; i += size_t(BLOCK) * gridDim.x)
        acc = op(acc, in[i]);

    acc = warp_reduce(acc, op);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < BLOCK / 32 ? warp_sums[lane] : Op::identity();
        acc = warp_reduce(acc, op);
        if (lane == 0)
            partial[blockIdx.x] = acc;
    }
}

__global__ void shared_tree_sum(const int *in, unsigned long long *total, int n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = 0;
    if (i < n) v += in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *vs = sdata;
        if (blockDim.x >= 64) vs[tid] = vs[tid] + vs[tid + 32];
        vs[tid] = vs[tid] + vs[tid + 16];
        vs[tid] = vs[tid] + vs[tid + 8];
        vs[tid] = vs[tid] + vs[tid + 4];
        vs[tid] = vs[tid] + vs[tid + 2];
        vs[tid] = vs[tid] + vs[tid + 1];
    }
    if (tid == 0)
        atomicAdd(total, static_cast<unsigned long long>(sdata[0]));
}

template <typename T, typename Op>
T reduce_on_device(const std::vector<T> &host, Op op)
{
    constexpr int BLOCK = 256;
    const int blocks = 120;
    T *d_in = nullptr, *d_partial = nullptr;
    cudaMalloc(&d_in, host.size() * sizeof(T));
    cudaMalloc(&d_partial, blocks * sizeof(T));
    cudaMemcpy(d_in, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
    block_reduce<BLOCK><<<blocks, BLOCK>>>(d_in, d_partial, host.size(), op);
    block_reduce<BLOCK><<<1, BLOCK>>>(d_partial, d_partial, size_t(blocks), op);
    T result{};
    cudaMemcpy(&result, d_partial, sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_partial);
    return result;
}

int main()
{
    std::vector<float> xs(1 << 18);
    for (size_t i = 0; i < xs.size(); ++i)
        xs[i] = float(i % 97) * 0.5f - 10.0f;
    float s = reduce_on_device(xs, Sum<float>{});
    float m = reduce_on_device(xs, Max<float>{});
    double ref = std::accumulate(xs.begin(), xs.end(), 0.0);

    std::vector<int> ints(100000, 3);
    int *d_ints;
    unsigned long long *d_total, total = 0;
    cudaMalloc(&d_ints, ints.size() * sizeof(int));
    cudaMalloc(&d_total, sizeof total);
    cudaMemcpy(d_ints, ints.data(), ints.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof total);
    const unsigned threads = 128;
    const unsigned blocks = (unsigned(ints.size()) + threads * 2 - 1) / (threads * 2);
    shared_tree_sum<<<blocks, threads, threads * sizeof(int)>>>(d_ints, d_total, int(ints.size()));
    cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);

    std::printf("sum=%f (ref %f) max=%f ints=%llu\n", s, ref, m, total);
    cudaFree(d_ints);
    cudaFree(d_total);
    return 0;
}
