// cufront-corpus: std=c++17,c++20
// CUB device-wide algorithms with the two-phase temporary-storage protocol:
// DeviceRadixSort (keys and pairs, descending), DeviceReduce (Sum, Max,
// ArgMin), DeviceScan, DeviceSelect::If, DeviceHistogram and
// DeviceSegmentedReduce, wrapped in a small RAII helper.
#include <cstdio>
#include <vector>
#include <stdexcept>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>

class TempStorage {
public:
    ~TempStorage() { cudaFree(ptr_); }
    void *get(size_t bytes)
    {
        if (bytes > size_) {
            cudaFree(ptr_);
            if (cudaMalloc(&ptr_, bytes) != cudaSuccess)
                throw std::runtime_error("temp storage");
            size_ = bytes;
        }
        return ptr_;
    }

private:
    void *ptr_ = nullptr;
    size_t size_ = 0;
};

// Runs a CUB algorithm twice: once to size the storage, once for real.
template <typename Algorithm>
cudaError_t run_cub(TempStorage &temp, Algorithm algo)
{
    size_t bytes = 0;
    cudaError_t err = algo(nullptr, bytes);
    if (err != cudaSuccess)
        return err;
    return algo(temp.get(bytes), bytes);
}

struct IsMultipleOf {
    int k;
    __host__ __device__ bool operator()(const int &x) const { return x % k == 0; }
};

template <typename T>
T *to_device(const std::vector<T> &h)
{
    T *d = nullptr;
    cudaMalloc(&d, h.size() * sizeof(T));
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <typename T>
T fetch(const T *d)
{
    T h{};
    cudaMemcpy(&h, d, sizeof(T), cudaMemcpyDeviceToHost);
    return h;
}

int main()
{
    const int n = 100000;
    std::vector<int> keys(n), vals(n);
    for (int i = 0; i < n; ++i) {
        keys[i] = (i * 2654435761u) % 100000;
        vals[i] = i;
    }
    int *d_keys = to_device(keys), *d_vals = to_device(vals);
    int *d_keys_out, *d_vals_out, *d_out, *d_count;
    cudaMalloc(&d_keys_out, n * sizeof(int));
    cudaMalloc(&d_vals_out, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_count, sizeof(int));
    TempStorage temp;

    run_cub(temp, [&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, d_keys, d_keys_out, n); });
    run_cub(temp, [&](void *t, size_t &b) {
        return cub::DeviceRadixSort::SortPairsDescending(t, b, d_keys, d_keys_out, d_vals, d_vals_out, n);
    });
    run_cub(temp, [&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, d_vals, d_count, n); });
    int sum = fetch(d_count);
    run_cub(temp, [&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, d_keys, d_count, n); });
    int max_key = fetch(d_count);

    int *d_min;
    cudaMalloc(&d_min, sizeof(int));
    cudaMalloc(&d_count, sizeof(int) * 2);
    int64_t *d_argmin_idx;
    cudaMalloc(&d_argmin_idx, sizeof(int64_t));
    run_cub(temp, [&](void *t, size_t &b) { return cub::DeviceReduce::ArgMin(t, b, d_keys, d_min, d_argmin_idx, n); });

    run_cub(temp, [&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, d_vals, d_out, n); });
    run_cub(temp, [&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveScan(t, b, d_vals, d_out, cuda::std::plus<>{}, 0, n); });
    run_cub(temp, [&](void *t, size_t &b) {
        return cub::DeviceSelect::If(t, b, d_keys, d_out, d_count, n, IsMultipleOf{7});
    });
    int selected = fetch(d_count);

    const int bins = 10;
    int *d_hist;
    cudaMalloc(&d_hist, bins * sizeof(int));
    run_cub(temp, [&](void *t, size_t &b) {
        return cub::DeviceHistogram::HistogramEven(t, b, d_keys, d_hist, bins + 1, 0, 100000, n);
    });
    std::vector<int> hist(bins);
    cudaMemcpy(hist.data(), d_hist, bins * sizeof(int), cudaMemcpyDeviceToHost);

    std::vector<int> offsets{0, n / 4, n / 2, n};
    int *d_offsets = to_device(offsets);
    run_cub(temp, [&](void *t, size_t &b) {
        return cub::DeviceSegmentedReduce::Max(t, b, d_keys, d_out, 3, d_offsets, d_offsets + 1);
    });
    std::vector<int> seg_max(3);
    cudaMemcpy(seg_max.data(), d_out, 3 * sizeof(int), cudaMemcpyDeviceToHost);

    std::printf("sum=%d max=%d min=%d selected=%d hist0=%d segmax=%d,%d,%d\n", sum, max_key, fetch(d_min), selected,
                hist[0], seg_max[0], seg_max[1], seg_max[2]);
    for (int *p : {d_keys, d_vals, d_keys_out, d_vals_out, d_out, d_count, d_hist, d_offsets, d_min})
        cudaFree(p);
    cudaFree(d_argmin_idx);
    return 0;
}
