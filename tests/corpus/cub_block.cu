// cufront-corpus: std=c++17,c++20
// CUB block- and warp-wide primitives inside user kernels: BlockLoad /
// BlockStore with transposition, BlockReduce, BlockScan, BlockRadixSort,
// WarpReduce and WarpScan, with TempStorage unions in shared memory.
#include <cstdio>
#include <vector>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda_runtime.h>

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void block_sort_and_scan(const int *in, int *sorted, int *scanned, int *block_totals)
{
    using Load = cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<int, BLOCK_THREADS, ITEMS_PER_THREAD>;
    using Scan = cub::BlockScan<int, BLOCK_THREADS>;
    using Reduce = cub::BlockReduce<int, BLOCK_THREADS>;

    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Sort::TempStorage sort;
        typename Scan::TempStorage scan;
        typename Reduce::TempStorage reduce;
    } temp;

    constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    const int offset = blockIdx.x * TILE;
    int items[ITEMS_PER_THREAD];

    Load(temp.load).Load(in + offset, items);
    __syncthreads();
    int total = Reduce(temp.reduce).Sum(items);
    __syncthreads();
    Sort(temp.sort).Sort(items);
    __syncthreads();
    Store(temp.store).Store(sorted + offset, items);
    __syncthreads();

    int aggregate = 0;
    Scan(temp.scan).ExclusiveSum(items, items, aggregate);
    __syncthreads();
    Store(temp.store).Store(scanned + offset, items);
    if (threadIdx.x == 0)
        block_totals[blockIdx.x] = total == aggregate ? total : -1;
}

struct MaxOp {
    template <typename T>
    __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

__global__ void warp_level(const float *in, float *warp_max, float *prefix, int n)
{
    constexpr int WARPS = 4;
    using WReduce = cub::WarpReduce<float>;
    using WScan = cub::WarpScan<float>;
    __shared__ typename WReduce::TempStorage reduce_storage[WARPS];
    __shared__ typename WScan::TempStorage scan_storage[WARPS];

    const int warp = threadIdx.x / 32;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float m = WReduce(reduce_storage[warp]).Reduce(v, MaxOp{});
    float inclusive;
    WScan(scan_storage[warp]).InclusiveSum(v, inclusive);
    if (threadIdx.x % 32 == 0)
        warp_max[i / 32] = m;
    if (i < n)
        prefix[i] = inclusive;
}

int main()
{
    constexpr int THREADS = 128, ITEMS = 4, TILE = THREADS * ITEMS;
    const int blocks = 8, n = blocks * TILE;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 1103515245 + 12345) & 0xffff;

    int *in, *sorted, *scanned, *totals;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&sorted, n * sizeof(int));
    cudaMalloc(&scanned, n * sizeof(int));
    cudaMalloc(&totals, blocks * sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    block_sort_and_scan<THREADS, ITEMS><<<blocks, THREADS>>>(in, sorted, scanned, totals);

    std::vector<int> hs(n), ht(blocks);
    cudaMemcpy(hs.data(), sorted, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(ht.data(), totals, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int b = 0; b < blocks; ++b)
        for (int i = 1; i < TILE; ++i)
            ok = ok && hs[b * TILE + i - 1] <= hs[b * TILE + i];

    const int m = 1000;
    float *fin, *wmax, *prefix;
    cudaMalloc(&fin, m * sizeof(float));
    cudaMalloc(&wmax, (m / 32 + 1) * sizeof(float));
    cudaMalloc(&prefix, m * sizeof(float));
    cudaMemset(fin, 0, m * sizeof(float));
    warp_level<<<(m + 127) / 128, 128>>>(fin, wmax, prefix, m);
    cudaDeviceSynchronize();

    std::printf("sorted tiles %s, total[0]=%d\n", ok ? "ok" : "BAD", ht[0]);
    cudaFree(in);
    cudaFree(sorted);
    cudaFree(scanned);
    cudaFree(totals);
    cudaFree(fin);
    cudaFree(wmax);
    cudaFree(prefix);
    return ok ? 0 : 1;
}
