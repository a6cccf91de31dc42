// cufront-corpus: std=c++17,c++20 flags=--extended-lambda
// A CCCL-heavy analytics pipeline over event records: thrust for
// generation, filtering and grouping; cub for a segmented sort and a
// block-level kernel; libcu++ for atomics, spans and tuples; thrust
// execution policies on a stream, and a custom allocator-free temp buffer.
#include <cstdio>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cuda/atomic>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <thrust/adjacent_difference.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/partition.h>
#include <thrust/random.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

struct Event {
    int user;
    int kind;
    float amount;
};

struct make_event {
    unsigned seed;
    __host__ __device__ Event operator()(unsigned i) const
    {
        thrust::default_random_engine rng(seed);
        rng.discard(3 * i);
        thrust::uniform_int_distribution<int> user(0, 999), kind(0, 3);
        thrust::uniform_real_distribution<float> amount(0.0f, 100.0f);
        return Event{user(rng), kind(rng), amount(rng)};
    }
};

struct event_user {
    __host__ __device__ int operator()(const Event &e) const { return e.user; }
};

template <int BLOCK>
__global__ void kind_totals(cuda::std::span<const Event> events, float *totals, cuda::atomic<int> *processed)
{
    using Reduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename Reduce::TempStorage temp;
    const int kind = blockIdx.y;
    float local = 0.0f;
    int seen = 0;
    for (size_t i = blockIdx.x * BLOCK + threadIdx.x; i < events.size(); i += size_t(BLOCK) * gridDim.x) {
        if (events[i].kind == kind) {
            local += events[i].amount;
            ++seen;
        }
    }
    float block_total = Reduce(temp).Sum(local);
    if (threadIdx.x == 0)
        atomicAdd(&totals[kind], block_total);
    processed->fetch_add(seen, cuda::std::memory_order_relaxed);
}

__host__ __device__ cuda::std::tuple<int, float> summarize(const Event &e)
{
    return cuda::std::make_tuple(e.kind, e.amount);
}

int main()
{
    const unsigned n = 1 << 18;
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    auto policy = thrust::cuda::par.on(stream);

    thrust::device_vector<Event> events(n);
    thrust::transform(policy, thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n),
                      events.begin(), make_event{2024u});

    // Large purchases first, then group by user.
    auto big_end = thrust::stable_partition(policy, events.begin(), events.end(),
                                            [] __device__(const Event &e) { return e.amount > 90.0f; });
    const auto big = static_cast<int>(big_end - events.begin());
    thrust::device_vector<int> users(n);
    thrust::transform(policy, events.begin(), events.end(), users.begin(), event_user());
    thrust::device_vector<float> amounts(n);
    thrust::transform(policy, events.begin(), events.end(), amounts.begin(),
                      [] __device__(const Event &e) { return cuda::std::get<1>(summarize(e)); });
    thrust::sort_by_key(policy, users.begin(), users.end(), amounts.begin());
    thrust::device_vector<int> unique_users(1000);
    thrust::device_vector<float> per_user(1000);
    auto ends = thrust::reduce_by_key(policy, users.begin(), users.end(), amounts.begin(), unique_users.begin(),
                                      per_user.begin());
    const int groups = static_cast<int>(ends.first - unique_users.begin());

    // Segment offsets from the sorted users, then a segmented sort of amounts.
    thrust::device_vector<int> boundaries(n);
    thrust::adjacent_difference(policy, users.begin(), users.end(), boundaries.begin());
    thrust::device_vector<int> offsets(groups + 1);
    thrust::exclusive_scan(policy, thrust::make_constant_iterator(0), thrust::make_constant_iterator(0) + 1,
                           offsets.begin());
    thrust::device_vector<float> sorted_amounts(n);
    size_t temp_bytes = 0;
    const float *in_ptr = thrust::raw_pointer_cast(amounts.data());
    float *out_ptr = thrust::raw_pointer_cast(sorted_amounts.data());
    thrust::device_vector<int> seg(2);
    seg[0] = 0;
    seg[1] = static_cast<int>(n);
    const int *seg_ptr = thrust::raw_pointer_cast(seg.data());
    cub::DeviceSegmentedRadixSort::SortKeys(nullptr, temp_bytes, in_ptr, out_ptr, int(n), 1, seg_ptr, seg_ptr + 1, 0,
                                            32, stream);
    thrust::device_vector<unsigned char> temp(temp_bytes);
    cub::DeviceSegmentedRadixSort::SortKeys(thrust::raw_pointer_cast(temp.data()), temp_bytes, in_ptr, out_ptr, int(n),
                                            1, seg_ptr, seg_ptr + 1, 0, 32, stream);

    thrust::device_vector<float> totals(4, 0.0f);
    cuda::atomic<int> *processed;
    cudaMallocManaged(&processed, sizeof(*processed));
    new (processed) cuda::atomic<int>(0);
    kind_totals<256><<<dim3(64, 4), 256, 0, stream>>>(
        cuda::std::span<const Event>(thrust::raw_pointer_cast(events.data()), n),
        thrust::raw_pointer_cast(totals.data()), processed);
    cudaStreamSynchronize(stream);

    thrust::host_vector<float> h_totals = totals;
    float top = sorted_amounts[n - 1];
    std::printf("big=%d groups=%d processed=%d top=%.2f totals=%.0f %.0f %.0f %.0f\n", big, groups, processed->load(),
                top, h_totals[0], h_totals[1], h_totals[2], h_totals[3]);
    cudaFree(processed);
    cudaStreamDestroy(stream);
    return processed ? 0 : 1;
}
