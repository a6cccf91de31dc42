// cufront-corpus: std=c++17,c++20
// Cooperative groups: thread_block and tiled_partition tiles with their
// reductions, coalesced groups under divergence, and a grid-wide sync in a
// kernel launched with cudaLaunchCooperativeKernel.
#include <cstdio>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <typename Group>
__device__ int tile_sum(Group g, int v)
{
    for (int offset = g.size() / 2; offset > 0; offset /= 2)
        v += g.shfl_down(v, offset);
    return v;
}

__global__ void block_sums(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ int warp_totals[32];

    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = tile_sum(warp, v);
    if (warp.thread_rank() == 0)
        warp_totals[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int t = warp.thread_rank() < warp.meta_group_size() ? warp_totals[warp.thread_rank()] : 0;
        t = cg::reduce(warp, t, cg::plus<int>());
        if (warp.thread_rank() == 0)
            out[block.group_index().x] = t;
    }
}

__global__ void odd_counts(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (in[i] & 1)) {
        cg::coalesced_group active = cg::coalesced_threads();
        if (active.thread_rank() == 0)
            atomicAdd(count, static_cast<int>(active.size()));
    }
}

__global__ void tile_scan(const int *in, int *out, int n)
{
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int prefix = cg::exclusive_scan(tile, v);
    if (i < n)
        out[i] = prefix;
}

// Two phases separated by a grid-wide barrier: every block's partial sum
// is visible before block 0 combines them.
__global__ void grid_reduce(const int *in, int *partial, int *total, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int acc;
    if (block.thread_rank() == 0)
        acc = 0;
    block.sync();
    int local = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        local += in[i];
    atomicAdd(&acc, local);
    block.sync();
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = acc;
    grid.sync();
    if (grid.thread_rank() == 0) {
        int t = 0;
        for (unsigned b = 0; b < gridDim.x; ++b)
            t += partial[b];
        *total = t;
    }
}

int main()
{
    const int n = 1 << 16;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = i % 10;
    int *in, *out, *count, *partial, *total;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(count, 0, sizeof(int));

    block_sums<<<n / 256, 256>>>(in, out, n);
    odd_counts<<<n / 256, 256>>>(in, count, n);
    tile_scan<<<n / 256, 256>>>(in, out, n);

    int device = 0, supported = 0, per_sm = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_reduce, 256, 0);
    int blocks = per_sm * sms;
    cudaMalloc(&partial, (blocks > 0 ? blocks : 1) * sizeof(int));
    int result = -1;
    if (supported && blocks > 0) {
        int len = n;
        void *args[] = {&in, &partial, &total, &len};
        cudaLaunchCooperativeKernel(reinterpret_cast<void *>(grid_reduce), dim3(blocks), dim3(256), args, 0, nullptr);
        cudaMemcpy(&result, total, sizeof(int), cudaMemcpyDeviceToHost);
    }
    int odd = 0;
    cudaMemcpy(&odd, count, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("odd=%d grid total=%d (cooperative launch %s)\n", odd, result, supported ? "yes" : "no");
    for (int *p : {in, out, count, partial, total})
        cudaFree(p);
    return 0;
}
