// cufront-corpus: std=c++17,c++20
// libcu++ (cuda::std and cuda::): atomics with memory orders and scopes,
// atomic_ref, span, array, tuple and structured bindings, complex,
// optional, numeric_limits, type_traits and cuda::std::functional.
#include <cstdio>
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/complex>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
#include <cuda_runtime.h>

using cplx = cuda::std::complex<float>;

struct Counters {
    cuda::atomic<int, cuda::thread_scope_device> hits;
    cuda::std::atomic<unsigned long long> bytes;
};

__device__ cuda::std::tuple<float, float, int> min_max_count(cuda::std::span<const float> xs)
{
    float lo = cuda::std::numeric_limits<float>::max();
    float hi = cuda::std::numeric_limits<float>::lowest();
    int count = 0;
    for (float v : xs) {
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        ++count;
    }
    return cuda::std::make_tuple(lo, hi, count);
}

template <typename T>
__device__ cuda::std::optional<T> safe_divide(T a, T b)
{
    static_assert(cuda::std::is_arithmetic_v<T>, "arithmetic only");
    if (b == T(0))
        return cuda::std::nullopt;
    return a / b;
}

__global__ void analyze(const float *data, int n, int window, float *out, Counters *counters)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w * window >= n)
        return;
    int len = (w + 1) * window <= n ? window : n - w * window;
    cuda::std::span<const float> xs(data + w * window, len);
    auto [lo, hi, count] = min_max_count(xs);
    auto ratio = safe_divide(hi - lo, static_cast<float>(count));
    out[w] = ratio.value_or(-1.0f);
    counters->hits.fetch_add(1, cuda::std::memory_order_relaxed);
    counters->bytes.fetch_add(sizeof(float) * len);
}

__global__ void rotate(cplx *zs, int n, float angle)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cplx r = cuda::std::polar(1.0f, angle);
        zs[i] = zs[i] * r + cuda::std::conj(zs[i]) * cplx(0.0f, 0.01f);
    }
}

__global__ void histogram_ref(const int *keys, int n, int *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cuda::atomic_ref<int, cuda::thread_scope_device> bin(bins[keys[i] & 15]);
        bin.fetch_add(1, cuda::std::memory_order_relaxed);
    }
}

__global__ void apply_ops(cuda::std::array<int, 4> *vals)
{
    cuda::std::array<int, 4> &a = *vals;
    cuda::std::plus<int> add;
    cuda::std::multiplies<> mul;
    auto pair = cuda::std::make_pair(add(a[0], a[1]), mul(a[2], a[3]));
    a[0] = pair.first;
    a[1] = pair.second;
    a[2] = cuda::std::max(a[2], a[3]);
    a[3] = static_cast<int>(a.size());
}

int main()
{
    const int n = 10000, window = 100;
    float *data, *out;
    Counters *counters;
    cudaMallocManaged(&data, n * sizeof(float));
    cudaMallocManaged(&out, (n / window) * sizeof(float));
    cudaMallocManaged(&counters, sizeof(Counters));
    for (int i = 0; i < n; ++i)
        data[i] = static_cast<float>((i * 31) % 1000);
    new (counters) Counters{};
    analyze<<<(n / window + 63) / 64, 64>>>(data, n, window, out, counters);

    cplx *zs;
    cudaMallocManaged(&zs, 256 * sizeof(cplx));
    for (int i = 0; i < 256; ++i)
        zs[i] = cplx(1.0f, static_cast<float>(i));
    rotate<<<1, 256>>>(zs, 256, 0.25f);

    int *keys, *bins;
    cudaMallocManaged(&keys, n * sizeof(int));
    cudaMallocManaged(&bins, 16 * sizeof(int));
    for (int i = 0; i < n; ++i)
        keys[i] = i * 7;
    for (int b = 0; b < 16; ++b)
        bins[b] = 0;
    histogram_ref<<<(n + 255) / 256, 256>>>(keys, n, bins);

    cuda::std::array<int, 4> *vals;
    cudaMallocManaged(&vals, sizeof(*vals));
    *vals = {2, 3, 4, 5};
    apply_ops<<<1, 1>>>(vals);
    cudaDeviceSynchronize();

    std::printf("hits=%d bytes=%llu out0=%f z=(%f,%f) bin0=%d vals=%d,%d,%d,%d\n", counters->hits.load(),
                counters->bytes.load(), out[0], zs[1].real(), zs[1].imag(), bins[0], (*vals)[0], (*vals)[1],
                (*vals)[2], (*vals)[3]);
    cudaFree(data);
    cudaFree(out);
    cudaFree(counters);
    cudaFree(zs);
    cudaFree(keys);
    cudaFree(bins);
    cudaFree(vals);
    return 0;
}
