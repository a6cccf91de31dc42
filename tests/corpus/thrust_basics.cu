// cufront-corpus: std=c++17,c++20 flags=--extended-lambda
// Thrust essentials: host and device vectors, transform with custom
// functors, sort (with a custom comparator), reduce, inclusive/exclusive
// scans, count_if, unique, copy_if and sequence.
#include <cstdio>
#include <iostream>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

struct saxpy_functor {
    const float a;
    explicit saxpy_functor(float a_) : a(a_) {}
    __host__ __device__ float operator()(const float &x, const float &y) const { return a * x + y; }
};

struct square {
    template <typename T>
    __host__ __device__ auto operator()(const T &x) const -> decltype(x * x) { return x * x; }
};

struct is_even {
    __host__ __device__ bool operator()(int x) const { return (x % 2) == 0; }
};

struct by_abs_desc {
    __host__ __device__ bool operator()(int a, int b) const
    {
        int aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
        return aa > bb;
    }
};

struct Particle {
    float x, v;
};

struct advance {
    float dt;
    __host__ __device__ Particle operator()(Particle p) const { return {p.x + p.v * dt, p.v * 0.99f}; }
};

template <typename Vector>
void print(const char *label, const Vector &v, size_t max = 8)
{
    std::cout << label << ":";
    for (size_t i = 0; i < v.size() && i < max; ++i)
        std::cout << ' ' << v[i];
    std::cout << (v.size() > max ? " ..." : "") << '\n';
}

int main()
{
    const int n = 1 << 16;
    thrust::device_vector<float> x(n), y(n, 1.0f);
    thrust::sequence(x.begin(), x.end(), 0.0f, 0.5f);
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_functor(2.0f));
    float norm2 = thrust::transform_reduce(y.begin(), y.end(), square(), 0.0f, thrust::plus<float>());
    float maxv = thrust::reduce(y.begin(), y.end(), -1.0f, thrust::maximum<float>());

    thrust::host_vector<int> h(1000);
    for (int i = 0; i < 1000; ++i)
        h[i] = (i * 7919) % 201 - 100;
    thrust::device_vector<int> d = h;
    thrust::sort(d.begin(), d.end());
    thrust::device_vector<int> sorted_abs = d;
    thrust::sort(thrust::device, sorted_abs.begin(), sorted_abs.end(), by_abs_desc());
    auto evens = thrust::count_if(d.begin(), d.end(), is_even());
    auto new_end = thrust::unique(d.begin(), d.end());
    d.erase(new_end, d.end());

    thrust::device_vector<int> incl(d.size()), excl(d.size());
    thrust::inclusive_scan(d.begin(), d.end(), incl.begin());
    thrust::exclusive_scan(d.begin(), d.end(), excl.begin(), 100, thrust::plus<int>());

    thrust::device_vector<int> positives(d.size());
    auto pend = thrust::copy_if(d.begin(), d.end(), positives.begin(),
                                [] __host__ __device__(int v) { return v > 0; });
    positives.resize(pend - positives.begin());

    thrust::device_vector<Particle> ps(256, Particle{0.0f, 1.0f});
    for (int step = 0; step < 10; ++step)
        thrust::transform(ps.begin(), ps.end(), ps.begin(), advance{0.1f});
    Particle p0 = ps[0];

    print("unique", d);
    print("inclusive", incl);
    print("exclusive", excl);
    print("positives", positives);
    std::printf("norm2=%g max=%g evens=%ld x=%f\n", norm2, maxv, static_cast<long>(evens), p0.x);
    return 0;
}
