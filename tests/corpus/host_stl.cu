// cufront-corpus: std=c++17,c++20
// A word-frequency and statistics tool whose host side leans on the
// standard library (containers, strings, streams, algorithms, smart
// pointers, std::function, chrono, random, optional, variant) and offloads
// the numeric part to a kernel.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>
#include <cuda_runtime.h>

__global__ void moments(const float *x, int n, float *out)
{
    __shared__ float s1[256], s2[256];
    float a = 0.f, b = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        a += x[i];
        b += x[i] * x[i];
    }
    s1[threadIdx.x] = a;
    s2[threadIdx.x] = b;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            s1[threadIdx.x] += s1[threadIdx.x + s];
            s2[threadIdx.x] += s2[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = s1[0];
        out[1] = s2[0];
    }
}

using Setting = std::variant<int, double, std::string, bool>;

struct SettingPrinter {
    std::ostream &os;
    void operator()(int v) const { os << "int " << v; }
    void operator()(double v) const { os << "double " << std::fixed << std::setprecision(2) << v; }
    void operator()(const std::string &v) const { os << "string \"" << v << '"'; }
    void operator()(bool v) const { os << "bool " << std::boolalpha << v; }
};

std::optional<int> parse_int(const std::string &s)
{
    try {
        size_t used = 0;
        int v = std::stoi(s, &used);
        if (used == s.size())
            return v;
    } catch (const std::exception &) {
    }
    return std::nullopt;
}

std::map<std::string, int> word_counts(const std::string &text)
{
    std::map<std::string, int> counts;
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        word.erase(std::remove_if(word.begin(), word.end(), [](unsigned char c) { return std::ispunct(c); }),
                   word.end());
        std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
        if (!word.empty())
            ++counts[word];
    }
    return counts;
}

class Timer {
public:
    explicit Timer(std::string label) : label_(std::move(label)), start_(std::chrono::steady_clock::now()) {}
    ~Timer()
    {
        auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_);
        // Timings only on request: the default output is deterministic (tests compare it).
        if (std::getenv("HOST_STL_TIMING")) std::cerr << label_ << ": " << us.count() << " us\n";
    }

private:
    std::string label_;
    std::chrono::steady_clock::time_point start_;
};

int main()
{
    const std::string text = "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs!";
    auto counts = word_counts(text);
    std::vector<std::pair<std::string, int>> ranked(counts.begin(), counts.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    for (const auto &[w, c] : ranked)
        if (c > 1)
            std::cout << std::setw(6) << w << " " << c << '\n';

    std::unordered_map<std::string, Setting> settings{
        {"threads", 256}, {"scale", 1.5}, {"name", std::string("run-1")}, {"verbose", true}};
    for (const auto &kv : settings) {
        std::cout << kv.first << " = ";
        std::visit(SettingPrinter{std::cout}, kv.second);
        std::cout << '\n';
    }
    int threads = std::holds_alternative<int>(settings["threads"]) ? std::get<int>(settings["threads"]) : 128;
    auto parsed = parse_int("1024").value_or(-1);

    std::vector<float> samples(parsed > 0 ? parsed : 1000);
    std::mt19937 gen(12345);  // fixed seed: reproducible output
    std::normal_distribution<float> dist(10.0f, 2.0f);
    std::generate(samples.begin(), samples.end(), [&] { return dist(gen); });

    auto buffer = std::unique_ptr<float, std::function<void(float *)>>(
        [] {
            float *p = nullptr;
            cudaMalloc(&p, 4096 * sizeof(float));
            return p;
        }(),
        [](float *p) { cudaFree(p); });
    auto result = std::make_shared<std::vector<float>>(2);
    {
        Timer t("moments on device");
        cudaMemcpy(buffer.get(), samples.data(), samples.size() * sizeof(float), cudaMemcpyHostToDevice);
        moments<<<1, threads>>>(buffer.get(), static_cast<int>(samples.size()), buffer.get() + samples.size());
        cudaMemcpy(result->data(), buffer.get() + samples.size(), 2 * sizeof(float), cudaMemcpyDeviceToHost);
    }
    float mean = (*result)[0] / samples.size();
    float host_mean = std::accumulate(samples.begin(), samples.end(), 0.0f) / samples.size();
    std::cout << "mean " << mean << " (host " << host_mean << ")\n";
    return std::abs(mean - host_mean) < 1e-2f ? 0 : 1;
}
