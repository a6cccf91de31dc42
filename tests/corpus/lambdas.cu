// cufront-corpus: std=c++17,c++20 flags=--extended-lambda
// Lambdas everywhere: host lambdas for setup, __device__ extended lambdas
// passed to kernel templates, __host__ __device__ lambdas usable on both
// sides, captures by value and of *this, generic and mutable lambdas.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>
#include <cuda_runtime.h>

template <typename F>
__global__ void for_each_index(int n, F f)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        f(i);
}

template <typename F>
void parallel_for(int n, F f)
{
    const int threads = 256;
    const int blocks = std::min((n + threads - 1) / threads, 1024);
    for_each_index<<<blocks, threads>>>(n, f);
}

template <typename T, typename Op>
__global__ void map_kernel(const T *in, T *out, int n, Op op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op(in[i]);
}

class Saxpy {
public:
    Saxpy(float a, float *x, float *y, int n) : a_(a), x_(x), y_(y), n_(n) {}

    void run()
    {
        // Captures *this by copy so the device sees a valid object.
        parallel_for(n_, [*this] __device__(int i) { y_[i] = a_ * x_[i] + y_[i]; });
    }

private:
    float a_;
    float *x_;
    float *y_;
    int n_;
};

int main()
{
    const int n = 10000;
    std::vector<float> hx(n), hy(n);
    int counter = 0;
    auto next = [&counter]() mutable { return static_cast<float>(counter++ % 13); };
    std::generate(hx.begin(), hx.end(), next);
    std::generate(hy.begin(), hy.end(), next);

    float *x, *y, *z;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    const float scale = 3.0f;
    parallel_for(n, [=] __device__(int i) { z[i] = scale * x[i]; });

    auto clamp01 = [] __host__ __device__(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); };
    map_kernel<<<(n + 255) / 256, 256>>>(z, z, n, clamp01);
    float host_side = clamp01(1.5f);

    auto poly = [] __device__(auto v) { return v * v + decltype(v)(1); };
    map_kernel<<<(n + 255) / 256, 256>>>(x, y, n, poly);

    Saxpy(2.0f, x, y, n).run();

    std::function<float(float)> twice = [](float v) { return 2 * v; };
    std::vector<float> out(n);
    cudaMemcpy(out.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
    float total = std::accumulate(out.begin(), out.end(), 0.0f, [&](float acc, float v) { return acc + twice(v); });

    auto report = [](const char *what, auto value) { std::printf("%s = %g\n", what, static_cast<double>(value)); };
    report("clamp(1.5)", host_side);
    report("total", total);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    return 0;
}
