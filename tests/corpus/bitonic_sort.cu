// cufront-corpus: std=c++17,c++20
// Bitonic sort: an in-shared-memory sort of each tile, followed by global
// merge steps; templated on key type and comparison, with key-value pairs.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>
#include <cuda_runtime.h>

template <typename T>
struct Ascending {
    __device__ bool operator()(const T &a, const T &b) const { return a < b; }
};

template <typename T>
struct Descending {
    __device__ bool operator()(const T &a, const T &b) const { return b < a; }
};

template <typename K, typename V>
struct Pair {
    K key;
    V value;
    __device__ bool operator<(const Pair &o) const { return key < o.key; }
};

template <typename T>
__device__ inline void swap_dev(T &a, T &b)
{
    T t = a;
    a = b;
    b = t;
}

// Sorts each tile of 2*blockDim.x elements in shared memory.
template <typename T, typename Cmp>
__global__ void bitonic_tile(T *data, Cmp cmp)
{
    extern __shared__ unsigned char smem_raw[];
    T *s = reinterpret_cast<T *>(smem_raw);
    const unsigned tile = 2 * blockDim.x;
    const unsigned base = blockIdx.x * tile;
    s[threadIdx.x] = data[base + threadIdx.x];
    s[threadIdx.x + blockDim.x] = data[base + threadIdx.x + blockDim.x];
    for (unsigned size = 2; size <= tile; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            bool ascending = ((base + pos) & size) == 0;
            if (cmp(s[pos + stride], s[pos]) == ascending)
                swap_dev(s[pos], s[pos + stride]);
        }
    }
    __syncthreads();
    data[base + threadIdx.x] = s[threadIdx.x];
    data[base + threadIdx.x + blockDim.x] = s[threadIdx.x + blockDim.x];
}

template <typename T, typename Cmp>
__global__ void bitonic_global_step(T *data, unsigned n, unsigned size, unsigned stride, Cmp cmp)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned partner = i ^ stride;
    if (i >= n || partner <= i)
        return;
    bool ascending = (i & size) == 0;
    if (cmp(data[partner], data[i]) == ascending)
        swap_dev(data[i], data[partner]);
}

template <typename T, typename Cmp>
void bitonic_sort(T *d_data, unsigned n, Cmp cmp)
{
    constexpr unsigned threads = 256, tile = 2 * threads;
    bitonic_tile<<<n / tile, threads, tile * sizeof(T)>>>(d_data, cmp);
    for (unsigned size = 2 * tile; size <= n; size <<= 1)
        for (unsigned stride = size / 2; stride > 0; stride >>= 1)
            bitonic_global_step<<<(n + threads - 1) / threads, threads>>>(d_data, n, size, stride, cmp);
}

template <typename T>
bool is_sorted_host(const std::vector<T> &v, bool descending)
{
    return descending ? std::is_sorted(v.rbegin(), v.rend()) : std::is_sorted(v.begin(), v.end());
}

int main()
{
    const unsigned n = 1u << 16;
    std::mt19937 rng(99);
    std::vector<float> keys(n);
    for (auto &k : keys)
        k = std::uniform_real_distribution<float>(-1e3f, 1e3f)(rng);

    float *d_keys;
    cudaMalloc(&d_keys, n * sizeof(float));
    cudaMemcpy(d_keys, keys.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    bitonic_sort(d_keys, n, Ascending<float>{});
    std::vector<float> up(n);
    cudaMemcpy(up.data(), d_keys, n * sizeof(float), cudaMemcpyDeviceToHost);
    bitonic_sort(d_keys, n, Descending<float>{});
    std::vector<float> down(n);
    cudaMemcpy(down.data(), d_keys, n * sizeof(float), cudaMemcpyDeviceToHost);

    using KV = Pair<int, float>;
    std::vector<KV> pairs(n);
    for (unsigned i = 0; i < n; ++i)
        pairs[i] = KV{static_cast<int>(rng() % 1000), static_cast<float>(i)};
    KV *d_pairs;
    cudaMalloc(&d_pairs, n * sizeof(KV));
    cudaMemcpy(d_pairs, pairs.data(), n * sizeof(KV), cudaMemcpyHostToDevice);
    bitonic_sort(d_pairs, n, Ascending<KV>{});
    cudaMemcpy(pairs.data(), d_pairs, n * sizeof(KV), cudaMemcpyDeviceToHost);
    bool pairs_ok = std::is_sorted(pairs.begin(), pairs.end(), [](const KV &a, const KV &b) { return a.key < b.key; });

    bool ok = is_sorted_host(up, false) && is_sorted_host(down, true) && pairs_ok;
    std::printf("bitonic sort of %u keys: %s\n", n, ok ? "sorted" : "NOT sorted");
    cudaFree(d_keys);
    cudaFree(d_pairs);
    return ok ? 0 : 1;
}
