// cufront-corpus: std=c++20
// C++20 concepts in CUDA code: standard and user-defined concepts
// constraining kernel templates and device functions, requires-clauses and
// requires-expressions, abbreviated function templates, subsumption.
#include <concepts>
#include <cstdio>
#include <type_traits>
#include <vector>
#include <cuda_runtime.h>

template <typename T>
concept Arithmetic = std::integral<T> || std::floating_point<T>;

template <typename T>
concept Vector2Like = requires(T v) {
    { v.x } -> std::convertible_to<float>;
    { v.y } -> std::convertible_to<float>;
};

template <typename F, typename T>
concept UnaryOp = std::regular_invocable<F, T> && std::convertible_to<std::invoke_result_t<F, T>, T>;

template <typename T>
concept HasScale = requires(T t, float s) {
    t.scale(s);
    typename T::value_type;
};

struct Doubler {
    __host__ __device__ float operator()(float x) const { return 2.0f * x; }
};

struct Meters {
    using value_type = float;
    float v;
    __host__ __device__ void scale(float s) { v *= s; }
};

template <Arithmetic T, UnaryOp<T> F>
__global__ void map_inplace(T *data, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = f(data[i]);
}

template <typename T>
    requires Vector2Like<T>
__host__ __device__ float length2(const T &v)
{
    return v.x * v.x + v.y * v.y;
}

__global__ void lengths(const float2 *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = length2(in[i]);
}

template <HasScale T>
__global__ void scale_all(T *items, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        items[i].scale(s);
}

// Subsumption: the more constrained overload wins for integers.
template <Arithmetic T>
__host__ __device__ constexpr int kind_of(T) { return 1; }
template <typename T>
    requires Arithmetic<T> && std::integral<T>
__host__ __device__ constexpr int kind_of(T) { return 2; }

static_assert(kind_of(1.0) == 1);
static_assert(kind_of(1) == 2);

template <Arithmetic T>
T sum_host(const std::vector<T> &xs)
{
    typename std::remove_cvref_t<decltype(xs)>::value_type total{};
    for (auto x : xs)
        total += x;
    return total;
}

// Abbreviated function template with a constrained placeholder.
Arithmetic auto twice(Arithmetic auto x) { return x + x; }

template <std::size_t N>
    requires(N > 0 && (N & (N - 1)) == 0)
__global__ void strided_copy(const int *in, int *out, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * N;
    if (i < n)
        out[i / N] = in[i];
}

int main()
{
    const int n = 1024;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemset(d, 0, n * sizeof(float));
    map_inplace<<<n / 256, 256>>>(d, n, Doubler{});

    float2 *pts;
    float *len;
    cudaMalloc(&pts, n * sizeof(float2));
    cudaMalloc(&len, n * sizeof(float));
    lengths<<<n / 256, 256>>>(pts, len, n);

    Meters *ms;
    cudaMalloc(&ms, 16 * sizeof(Meters));
    scale_all<<<1, 16>>>(ms, 16, 0.5f);

    int *a, *b;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    strided_copy<4><<<1, 256>>>(a, b, n);

    static_assert(Vector2Like<float2> && !Vector2Like<float>);
    static_assert(HasScale<Meters> && !HasScale<Doubler>);
    std::vector<int> xs{1, 2, 3, 4};
    std::printf("sum=%d kind=%d twice=%g\n", sum_host(xs), kind_of(3u), twice(1.25));
    cudaFree(d);
    cudaFree(pts);
    cudaFree(len);
    cudaFree(ms);
    cudaFree(a);
    cudaFree(b);
    return 0;
}
