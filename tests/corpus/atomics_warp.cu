// cufront-corpus: std=c++17,c++20
// Atomics and warp-level intrinsics: atomicCAS loops for float max and
// double add, atomicExch-based spin lock, ballot/any/all votes, match,
// popc/ffs bit tricks, warp-aggregated atomics for stream compaction.
#include <cstdio>
#include <cstdint>
#include <climits>
#include <vector>
#include <cuda_runtime.h>

__device__ float atomic_max_float(float *addr, float value)
{
    int *as_int = reinterpret_cast<int *>(addr);
    int old = *as_int, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(as_int, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ double atomic_add_double_cas(double *addr, double v)
{
    auto *p = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

struct SpinLock {
    int state;
    __device__ void lock()
    {
        while (atomicExch(&state, 1) != 0) {
            __nanosleep(32);
        }
        __threadfence();
    }
    __device__ void unlock()
    {
        __threadfence();
        atomicExch(&state, 0);
    }
};

__global__ void stats(const float *x, int n, float *max_out, double *sum_out, SpinLock *lock, int *order)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomic_max_float(max_out, x[i]);
        atomic_add_double_cas(sum_out, x[i]);
    }
    if (threadIdx.x == 0) {
        lock->lock();
        order[blockIdx.x] = atomicAdd(&order[gridDim.x], 1);
        lock->unlock();
    }
}

// Warp-aggregated increment: one atomic per warp instead of per thread.
__device__ int aggregated_increment(int *counter)
{
    unsigned mask = __activemask();
    int leader = __ffs(mask) - 1;
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(counter, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + __popc(mask & ((1u << lane) - 1));
}

__global__ void compact_positive(const float *in, float *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.0f)
        out[aggregated_increment(count)] = in[i];
}

__global__ void votes(const int *in, unsigned *ballots, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v < 0);
    int all = __all_sync(0xffffffffu, v != 0);
    unsigned same = __match_any_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) {
        ballots[i / 32] = b;
        atomicOr(&flags[0], any);
        atomicAnd(&flags[1], all);
        atomicMax(&flags[2], __popc(same));
        atomicMin(&flags[3], __clz(b));
    }
}

int main()
{
    const int n = 5000;
    std::vector<float> hx(n);
    std::vector<int> hi(n);
    for (int i = 0; i < n; ++i) {
        hx[i] = ((i * 7919) % 2001 - 1000) * 0.01f;
        hi[i] = (i % 5) - 2;
    }
    float *x, *out, *max_v;
    double *sum;
    int *count, *order, *ints, *flags;
    unsigned *ballots;
    SpinLock *lock;
    const int blocks = (n + 255) / 256;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&max_v, sizeof(float));
    cudaMalloc(&sum, sizeof(double));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&order, (blocks + 1) * sizeof(int));
    cudaMalloc(&ints, n * sizeof(int));
    cudaMalloc(&flags, 4 * sizeof(int));
    cudaMalloc(&ballots, (n / 32 + 1) * sizeof(unsigned));
    cudaMalloc(&lock, sizeof(SpinLock));
    cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(ints, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    const float lowest = -1e30f;
    cudaMemcpy(max_v, &lowest, sizeof lowest, cudaMemcpyHostToDevice);
    cudaMemset(sum, 0, sizeof(double));
    cudaMemset(count, 0, sizeof(int));
    cudaMemset(order, 0, (blocks + 1) * sizeof(int));
    cudaMemset(lock, 0, sizeof(SpinLock));
    const int init_flags[4] = {0, 1, 0, INT_MAX};
    cudaMemcpy(flags, init_flags, sizeof init_flags, cudaMemcpyHostToDevice);

    stats<<<blocks, 256>>>(x, n, max_v, sum, lock, order);
    compact_positive<<<blocks, 256>>>(x, out, count, n);
    votes<<<blocks, 256>>>(ints, ballots, flags, n);

    float hmax = 0; // initialized: without a GPU the copies fail and these are printed
    double hsum = 0;
    int hcount = 0, hflags[4] = {};
    cudaMemcpy(&hmax, max_v, sizeof hmax, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hsum, sum, sizeof hsum, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hcount, count, sizeof hcount, cudaMemcpyDeviceToHost);
    cudaMemcpy(hflags, flags, sizeof hflags, cudaMemcpyDeviceToHost);
    std::printf("max=%f sum=%f positives=%d any=%d all=%d match=%d clz=%d\n", hmax, hsum, hcount, hflags[0],
                hflags[1], hflags[2], hflags[3]);
    for (void *p : {(void *)x, (void *)out, (void *)max_v, (void *)sum, (void *)count, (void *)order, (void *)ints,
                    (void *)flags, (void *)ballots, (void *)lock})
        cudaFree(p);
    return 0;
}
