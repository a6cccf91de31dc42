// cufront-corpus: std=c++20 flags=--extended-lambda
// C++20 features inside device code: concepts on kernel templates with
// cuda::std, consteval tables, designated initializers for kernel
// parameters, templated lambdas, [[likely]]/[[unlikely]], using enum,
// char8_t, and constexpr std::bit_cast-style helpers from libcu++.
#include <concepts>
#include <cstdio>
#include <cuda/std/bit>
#include <cuda/std/span>
#include <cuda/std/array>
#include <cuda_runtime.h>

enum class Mode { Clamp, Wrap, Mirror };

struct Params {
    int width = 0;
    int height = 0;
    Mode mode = Mode::Clamp;
    float gain = 1.0f;
};

template <typename T>
concept Pixel = std::floating_point<T> || std::same_as<T, unsigned char>;

consteval cuda::std::array<float, 5> binomial5()
{
    cuda::std::array<float, 5> w{1, 4, 6, 4, 1};
    float sum = 0;
    for (float v : w)
        sum += v;
    for (float &v : w)
        v /= sum;
    return w;
}

__device__ int resolve(int i, int n, Mode m)
{
    using enum Mode;
    switch (m) {
    case Clamp:
        return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case Wrap:
        return ((i % n) + n) % n;
    case Mirror:
        return i < 0 ? -i - 1 : (i >= n ? 2 * n - i - 1 : i);
    }
    return 0;
}

template <Pixel P>
__global__ void blur_rows(const P *in, float *out, Params p)
{
    constexpr auto w = binomial5();
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    if (x >= p.width) [[unlikely]]
        return;
    float acc = 0.0f;
    for (int k = -2; k <= 2; ++k)
        acc += w[k + 2] * static_cast<float>(in[y * p.width + resolve(x + k, p.width, p.mode)]);
    out[y * p.width + x] = acc * p.gain;
}

template <typename F>
__global__ void apply(cuda::std::span<float> xs, F f)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < xs.size()) [[likely]]
        xs[i] = f(xs[i]);
}

__device__ unsigned float_bits(float f) { return cuda::std::bit_cast<unsigned>(f); }

__global__ void exponents(const float *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = static_cast<int>((float_bits(in[i]) >> 23) & 0xff) - 127;
}

int main()
{
    const Params p{.width = 640, .height = 4, .mode = Mode::Mirror, .gain = 1.5f};
    const int n = p.width * p.height;
    unsigned char *img;
    float *out;
    int *ex;
    cudaMalloc(&img, n);
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&ex, n * sizeof(int));
    cudaMemset(img, 100, n);
    dim3 grid((p.width + 127) / 128, p.height);
    blur_rows<<<grid, 128>>>(img, out, p);
    blur_rows<float><<<grid, 128>>>(out, out, Params{.width = p.width, .height = p.height});

    auto squash = [] __device__(float v) { return v / (1.0f + (v < 0 ? -v : v)); };
    apply<<<(n + 255) / 256, 256>>>(cuda::std::span<float>(out, n), squash);
    auto twice = []<typename T>(T v) { return v * T(2); };
    const float gain = twice(0.75f);
    apply<<<(n + 255) / 256, 256>>>(cuda::std::span<float>(out, n), [gain] __device__(float v) { return v * gain; });
    exponents<<<(n + 255) / 256, 256>>>(out, ex, n);

    const char8_t *tag = u8"cxx20";
    int e0 = 0;
    cudaMemcpy(&e0, ex, sizeof e0, cudaMemcpyDeviceToHost);
    std::printf("%s exponent[0]=%d\n", reinterpret_cast<const char *>(tag), e0);
    cudaFree(img);
    cudaFree(out);
    cudaFree(ex);
    return 0;
}
