// cufront-corpus: std=c++20
// Host-side C++20 around a kernel: ranges and views pipelines, the
// three-way comparison operator (defaulted and custom), designated
// initializers, consteval and constinit, std::span and std::format-free
// reporting, plus a kernel fed by the ranges-built input.
#include <algorithm>
#include <compare>
#include <cstdio>
#include <map>
#include <numeric>
#include <ranges>
#include <span>
#include <string>
#include <vector>
#include <cuda_runtime.h>

struct Version {
    int major = 0, minor = 0, patch = 0;
    auto operator<=>(const Version &) const = default;
};

struct Measurement {
    std::string name;
    double value;
    std::strong_ordering operator<=>(const Measurement &o) const
    {
        if (auto c = name <=> o.name; c != 0)
            return c;
        return value < o.value ? std::strong_ordering::less
                               : (value > o.value ? std::strong_ordering::greater : std::strong_ordering::equal);
    }
    bool operator==(const Measurement &o) const = default;
};

struct LaunchConfig {
    unsigned blocks = 1;
    unsigned threads = 128;
    size_t shared_bytes = 0;
    cudaStream_t stream = nullptr;
};

consteval unsigned round_up_pow2(unsigned v)
{
    unsigned p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

constinit int g_verbosity = 1;

__global__ void scale(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= s;
}

void launch_scale(std::span<float> host, float s, const LaunchConfig &cfg)
{
    float *d;
    cudaMalloc(&d, host.size_bytes());
    cudaMemcpy(d, host.data(), host.size_bytes(), cudaMemcpyHostToDevice);
    scale<<<cfg.blocks, cfg.threads, cfg.shared_bytes, cfg.stream>>>(d, static_cast<int>(host.size()), s);
    cudaMemcpy(host.data(), d, host.size_bytes(), cudaMemcpyDeviceToHost);
    cudaFree(d);
}

int main()
{
    namespace rv = std::views;
    std::vector<int> raw(100);
    std::iota(raw.begin(), raw.end(), 0);
    auto odd_squares = raw | rv::filter([](int v) { return v % 2 == 1; }) | rv::transform([](int v) { return v * v; }) |
                       rv::take(20);
    std::vector<float> input;
    for (int v : odd_squares)
        input.push_back(static_cast<float>(v));

    constexpr unsigned threads = round_up_pow2(100);
    LaunchConfig cfg{.blocks = 1, .threads = threads};
    launch_scale(input, 0.5f, cfg);

    auto [mn, mx] = std::ranges::minmax(input);
    std::vector<Version> versions{{1, 2, 3}, {1, 10, 0}, {0, 9, 9}, {.major = 1, .minor = 2}};
    std::ranges::sort(versions);
    bool ordered = versions.front() < versions.back() && (Version{1, 2, 3} <=> Version{1, 2, 3}) == 0;

    std::vector<Measurement> ms{{"b", 2.0}, {"a", 3.0}, {"a", 1.0}};
    std::ranges::sort(ms, std::greater<>{});
    auto names = ms | rv::transform(&Measurement::name);
    std::map<std::string, int> seen;
    for (const auto &n : names)
        ++seen[n];

    for (int i : rv::iota(0, 3))
        if (g_verbosity > 0)
            std::printf("input[%d] = %g\n", i, input[i]);
    std::printf("min=%g max=%g ordered=%d first=%s kinds=%zu\n", mn, mx, ordered, ms.front().name.c_str(),
                seen.size());
    return ordered ? 0 : 1;
}
