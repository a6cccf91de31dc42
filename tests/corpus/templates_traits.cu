// cufront-corpus: std=c++17,c++20
// Template machinery in CUDA code: kernel templates, custom type traits,
// SFINAE with enable_if, tag dispatch, constexpr functions, CRTP policies.
#include <cstdio>
#include <cstdint>
#include <type_traits>
#include <vector>
#include <cuda_runtime.h>

namespace meta {

template <typename T>
struct is_vector4 : std::false_type {};
template <>
struct is_vector4<float4> : std::true_type {};
template <>
struct is_vector4<int4> : std::true_type {};

template <typename T>
inline constexpr bool is_vector4_v = is_vector4<T>::value;

template <typename T>
struct scalar_of {
    using type = T;
};
template <>
struct scalar_of<float4> {
    using type = float;
};
template <>
struct scalar_of<int4> {
    using type = int;
};
template <typename T>
using scalar_of_t = typename scalar_of<T>::type;

__host__ __device__ constexpr unsigned next_pow2(unsigned v)
{
    v--;
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    return v + 1;
}
static_assert(next_pow2(100) == 128, "next_pow2");

__host__ __device__ constexpr int ilog2(unsigned v) { return v <= 1 ? 0 : 1 + ilog2(v / 2); }
static_assert(ilog2(1024) == 10, "ilog2");

} // namespace meta

// Horizontal sum, chosen by SFINAE on whether T is a 4-vector.
template <typename T, typename std::enable_if<meta::is_vector4_v<T>, int>::type = 0>
__host__ __device__ meta::scalar_of_t<T> hsum(const T &v)
{
    return v.x + v.y + v.z + v.w;
}

template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
__host__ __device__ T hsum(const T &v)
{
    return v;
}

// CRTP: the derived class supplies `apply`, the base provides the loop.
template <typename Derived>
struct ElementwiseOp {
    template <typename T>
    __device__ void run(T *data, int n) const
    {
        const Derived &self = static_cast<const Derived &>(*this);
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
            data[i] = self.apply(data[i]);
    }
};

struct Square : ElementwiseOp<Square> {
    template <typename T>
    __device__ T apply(T x) const { return x * x; }
};

struct Clamp : ElementwiseOp<Clamp> {
    float lo, hi;
    __host__ __device__ Clamp(float l, float h) : lo(l), hi(h) {}
    __device__ float apply(float x) const { return x < lo ? lo : (x > hi ? hi : x); }
};

template <typename Op, typename T>
__global__ void elementwise(Op op, T *data, int n)
{
    op.run(data, n);
}

template <typename T>
__global__ void sum_components(const T *in, meta::scalar_of_t<T> *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = hsum(in[i]);
}

// Tag dispatch between a shared-memory and a register implementation.
struct use_shared {};
struct use_registers {};

template <unsigned N>
using strategy_for = std::conditional_t<(N > 64), use_shared, use_registers>;

template <unsigned N>
__device__ float dot_impl(const float *a, const float *b, use_registers)
{
    float s = 0;
#pragma unroll
    for (unsigned i = 0; i < N; ++i)
        s += a[i] * b[i];
    return s;
}

template <unsigned N>
__device__ float dot_impl(const float *a, const float *b, use_shared)
{
    __shared__ float prod[meta::next_pow2(N)];
    for (unsigned i = threadIdx.x; i < meta::next_pow2(N); i += blockDim.x)
        prod[i] = i < N ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (unsigned s = meta::next_pow2(N) / 2; s > 0; s >>= 1) {
        for (unsigned i = threadIdx.x; i < s; i += blockDim.x)
            prod[i] += prod[i + s];
        __syncthreads();
    }
    return prod[0];
}

template <unsigned N>
__global__ void dot(const float *a, const float *b, float *out)
{
    float r = dot_impl<N>(a, b, strategy_for<N>{});
    if (threadIdx.x == 0)
        *out = r;
}

int main()
{
    const int n = 1000;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i - 500) * 0.01f;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    elementwise<<<4, 256>>>(Clamp(-2.0f, 2.0f), d, n);
    elementwise<<<4, 256>>>(Square{}, d, n);

    float4 *v;
    float *sums, result = 0;
    cudaMalloc(&v, 10 * sizeof(float4));
    cudaMalloc(&sums, 10 * sizeof(float));
    sum_components<<<1, 32>>>(v, sums, 10);
    dot<32><<<1, 32>>>(d, d, sums);
    dot<200><<<1, 128>>>(d, d, sums + 1);
    cudaMemcpy(&result, sums + 1, sizeof(float), cudaMemcpyDeviceToHost);

    static_assert(std::is_same_v<meta::scalar_of_t<int4>, int>, "scalar_of");
    std::printf("hsum(3)=%d dot=%f pow2=%u\n", hsum(3), result, meta::next_pow2(33));
    cudaFree(d);
    cudaFree(v);
    cudaFree(sums);
    return 0;
}
