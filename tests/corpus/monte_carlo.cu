// cufront-corpus: std=c++17,c++20
// Monte Carlo estimation with a hand-written counter-based RNG (Philox-like
// mixing) per thread: pi by dart throwing, a European option price under
// Black-Scholes, and a block-level reduction of the estimates.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

// A small counter-based generator: the same (seed, counter) always gives the
// same number, so results do not depend on the launch shape.
struct CounterRng {
    uint64_t key;
    uint64_t counter;

    __host__ __device__ static uint64_t mix(uint64_t z)
    {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    __host__ __device__ uint32_t next_u32() { return static_cast<uint32_t>(mix(key ^ mix(counter++)) >> 32); }
    __host__ __device__ float uniform() { return (next_u32() >> 8) * (1.0f / 16777216.0f); }
    __host__ __device__ float2 normal2()
    {
        float u1 = fmaxf(uniform(), 1e-7f), u2 = uniform();
        float r = sqrtf(-2.0f * logf(u1));
        float t = 6.2831853f * u2;
        return make_float2(r * cosf(t), r * sinf(t));
    }
};

template <int BLOCK>
__device__ float block_sum(float v)
{
    __shared__ float buf[BLOCK];
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    return buf[0];
}

template <int BLOCK>
__global__ void estimate_pi(uint64_t seed, int samples_per_thread, float *block_hits)
{
    const unsigned tid = blockIdx.x * BLOCK + threadIdx.x;
    CounterRng rng{seed ^ (uint64_t(tid) << 32), 0};
    int hits = 0;
    for (int s = 0; s < samples_per_thread; ++s) {
        float x = rng.uniform(), y = rng.uniform();
        hits += x * x + y * y <= 1.0f;
    }
    float total = block_sum<BLOCK>(static_cast<float>(hits));
    if (threadIdx.x == 0)
        block_hits[blockIdx.x] = total;
}

struct OptionParams {
    float spot, strike, rate, volatility, years;
};

template <int BLOCK>
__global__ void price_call(OptionParams p, uint64_t seed, int paths_per_thread, float *block_payoffs)
{
    const unsigned tid = blockIdx.x * BLOCK + threadIdx.x;
    CounterRng rng{seed + tid * 0x9e3779b97f4a7c15ull, 0};
    const float drift = (p.rate - 0.5f * p.volatility * p.volatility) * p.years;
    const float diffusion = p.volatility * sqrtf(p.years);
    float sum = 0.0f;
    for (int i = 0; i < paths_per_thread; i += 2) {
        float2 z = rng.normal2();
        float s1 = p.spot * expf(drift + diffusion * z.x);
        float s2 = p.spot * expf(drift + diffusion * z.y);
        sum += fmaxf(s1 - p.strike, 0.0f) + fmaxf(s2 - p.strike, 0.0f);
    }
    float total = block_sum<BLOCK>(sum);
    if (threadIdx.x == 0)
        block_payoffs[blockIdx.x] = total;
}

static double black_scholes_call(const OptionParams &p)
{
    auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    double d1 = (std::log(p.spot / p.strike) + (p.rate + 0.5 * p.volatility * p.volatility) * p.years) /
                (p.volatility * std::sqrt(p.years));
    double d2 = d1 - p.volatility * std::sqrt(p.years);
    return p.spot * cdf(d1) - p.strike * std::exp(-p.rate * p.years) * cdf(d2);
}

int main()
{
    constexpr int BLOCK = 256;
    const int blocks = 256, per_thread = 1024;
    float *d_partial;
    cudaMalloc(&d_partial, blocks * sizeof(float));
    std::vector<float> partial(blocks);

    estimate_pi<BLOCK><<<blocks, BLOCK>>>(12345ull, per_thread, d_partial);
    cudaMemcpy(partial.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    double hits = 0;
    for (float h : partial)
        hits += h;
    double pi = 4.0 * hits / (double(blocks) * BLOCK * per_thread);

    OptionParams opt{100.0f, 105.0f, 0.03f, 0.2f, 1.0f};
    price_call<BLOCK><<<blocks, BLOCK>>>(opt, 777ull, per_thread, d_partial);
    cudaMemcpy(partial.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    double payoff = 0;
    for (float v : partial)
        payoff += v;
    double price = std::exp(-opt.rate * opt.years) * payoff / (double(blocks) * BLOCK * per_thread);

    std::printf("pi ~ %.5f, call ~ %.4f (closed form %.4f)\n", pi, price, black_scholes_call(opt));
    cudaFree(d_partial);
    return std::fabs(pi - 3.14159) < 0.01 ? 0 : 1;
}
