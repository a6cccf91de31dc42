// cufront-corpus: std=c++17,c++20
// Host-side callables around CUDA resources, as applications write them:
// device buffers owned by unique_ptr with a functor, a function-pointer and
// a lambda deleter; comparators and helpers that are lambdas at namespace
// scope; a table of actions (std::function in a map) filled with emplace and
// operator[]; worker threads running lambdas with captures; a cache keyed by
// a tuple with a custom hash, filled through piecewise construction and a
// braced key.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>
#include <cuda_runtime.h>

namespace util {
auto by_magnitude = [](float a, float b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b); };
static auto halve = [](float x) { return 0.5f * x; };
} // namespace util

auto descending = [](int a, int b) { return a > b; };

template <typename T>
struct DeviceFree {
    void operator()(T *p) const { cudaFree(p); }
};

template <typename T>
using device_buffer = std::unique_ptr<T, DeviceFree<T>>;

template <typename T>
device_buffer<T> allocate(size_t n)
{
    T *p = nullptr;
    if (cudaMalloc(&p, n * sizeof(T)) != cudaSuccess)
        return device_buffer<T>();
    return device_buffer<T>(p);
}

__global__ void scale(float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= s;
}

struct Pipeline {
    int n;
    float *data;
    void run(float s) { scale<<<(n + 127) / 128, 128>>>(data, s, n); }
};

using Key = std::tuple<int, int>;
struct KeyHash {
    size_t operator()(const Key &k) const
    {
        return std::hash<int>()(std::get<0>(k)) * 31 + std::hash<int>()(std::get<1>(k));
    }
};

int main()
{
    const int n = 256;
    auto a = allocate<float>(n);
    std::unique_ptr<float, decltype(&cudaFree)> b(nullptr, &cudaFree);
    float *raw = nullptr;
    cudaMalloc(&raw, n * sizeof(float));
    auto release = [](float *p) { cudaFree(p); };
    std::unique_ptr<float, decltype(release)> c(raw, release);

    Pipeline pipe{n, a.get()};
    std::map<std::string, std::function<void(Pipeline &)>> actions;
    actions.emplace("double", [](Pipeline &p) { p.run(2.0f); });
    actions["halve"] = [](Pipeline &p) { p.run(util::halve(1.0f)); };
    for (auto &[name, act] : actions)
        act(pipe);

    std::mutex m;
    int done = 0;
    std::vector<std::thread> workers;
    for (int i = 0; i < 2; ++i)
        workers.emplace_back([&m, &done, i] {
            std::lock_guard<std::mutex> g(m);
            done += i;
        });
    for (auto &w : workers)
        w.join();

    std::vector<float> host(n);
    cudaMemcpy(host.data(), a.get(), n * sizeof(float), cudaMemcpyDeviceToHost);
    std::sort(host.begin(), host.end(), util::by_magnitude);
    std::set<int, decltype(descending)> order(descending);
    order.insert(3);
    order.insert(1);

    std::unordered_map<Key, std::string, KeyHash> cache;
    cache.emplace(std::piecewise_construct, std::forward_as_tuple(1, 2), std::forward_as_tuple("first"));
    cache[{3, 4}] = "second";

    std::function<float(float)> f = util::halve;
    printf("%d %d %zu %f %zu\n", done, *order.begin(), cache.size(), f(host[0]), sizeof(descending));
    return 0;
}
