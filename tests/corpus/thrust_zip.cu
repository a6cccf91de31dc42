// cufront-corpus: std=c++17,c++20 flags=--extended-lambda
// Thrust fancy iterators: zip iterators over structure-of-arrays data,
// transform and counting iterators, permutation iterators, sort_by_key,
// reduce_by_key for group-by aggregation, and tuple-returning functors.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>
#include <thrust/inner_product.h>
#include <thrust/binary_search.h>

using Point = thrust::tuple<float, float, float>;

struct length_of {
    __host__ __device__ float operator()(const Point &p) const
    {
        float x = thrust::get<0>(p), y = thrust::get<1>(p), z = thrust::get<2>(p);
        return sqrtf(x * x + y * y + z * z);
    }
};

struct cross_product {
    __host__ __device__ Point operator()(const Point &a, const Point &b) const
    {
        return thrust::make_tuple(thrust::get<1>(a) * thrust::get<2>(b) - thrust::get<2>(a) * thrust::get<1>(b),
                                  thrust::get<2>(a) * thrust::get<0>(b) - thrust::get<0>(a) * thrust::get<2>(b),
                                  thrust::get<0>(a) * thrust::get<1>(b) - thrust::get<1>(a) * thrust::get<0>(b));
    }
};

struct bucket_of {
    int buckets;
    __host__ __device__ int operator()(int i) const { return (i * 2654435761u) % buckets; }
};

struct stats_op {
    __host__ __device__ thrust::tuple<float, int> operator()(const thrust::tuple<float, int> &a,
                                                            const thrust::tuple<float, int> &b) const
    {
        return thrust::make_tuple(thrust::get<0>(a) + thrust::get<0>(b), thrust::get<1>(a) + thrust::get<1>(b));
    }
};

int main()
{
    const int n = 4096;
    thrust::device_vector<float> ax(n), ay(n), az(n), bx(n, 0.f), by(n, 0.f), bz(n, 1.f);
    thrust::counting_iterator<int> first(0);
    thrust::transform(first, first + n, ax.begin(), [] __device__(int i) { return 0.001f * i; });
    thrust::transform(first, first + n, ay.begin(), [] __device__(int i) { return 1.0f - 0.001f * i; });
    thrust::fill(az.begin(), az.end(), 0.5f);

    auto a = thrust::make_zip_iterator(thrust::make_tuple(ax.begin(), ay.begin(), az.begin()));
    auto b = thrust::make_zip_iterator(thrust::make_tuple(bx.begin(), by.begin(), bz.begin()));
    thrust::device_vector<float> cx(n), cy(n), cz(n);
    auto c = thrust::make_zip_iterator(thrust::make_tuple(cx.begin(), cy.begin(), cz.begin()));
    thrust::transform(a, a + n, b, c, cross_product());

    auto lengths = thrust::make_transform_iterator(c, length_of());
    float total_len = thrust::reduce(lengths, lengths + n);

    // Group by a hashed key: sort_by_key then reduce_by_key with (sum, count).
    thrust::device_vector<int> keys(n);
    thrust::transform(first, first + n, keys.begin(), bucket_of{16});
    thrust::device_vector<float> values(ax);
    thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
    thrust::device_vector<int> out_keys(16);
    thrust::device_vector<float> sums(16);
    thrust::device_vector<int> counts(16);
    auto vals_and_ones = thrust::make_zip_iterator(thrust::make_tuple(values.begin(), thrust::make_constant_iterator(1)));
    auto outs = thrust::make_zip_iterator(thrust::make_tuple(sums.begin(), counts.begin()));
    auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), vals_and_ones, out_keys.begin(), outs,
                                      thrust::equal_to<int>(), stats_op());
    int groups = static_cast<int>(ends.first - out_keys.begin());

    // Gather through a permutation.
    thrust::device_vector<int> perm(8);
    thrust::sequence(perm.begin(), perm.end(), 0, 512);
    auto gathered = thrust::make_permutation_iterator(ax.begin(), perm.begin());
    float gathered_sum = thrust::reduce(gathered, gathered + 8);
    float dot = thrust::inner_product(ax.begin(), ax.end(), ay.begin(), 0.0f);

    thrust::device_vector<int> sorted_keys = keys;
    thrust::device_vector<int> probes(3);
    probes[0] = 0;
    probes[1] = 7;
    probes[2] = 15;
    thrust::device_vector<int> lower(3);
    thrust::lower_bound(sorted_keys.begin(), sorted_keys.end(), probes.begin(), probes.end(), lower.begin());

    thrust::host_vector<int> h_counts = counts;
    std::printf("len=%f groups=%d count0=%d gathered=%f dot=%f lower7=%d\n", total_len, groups, h_counts[0],
                gathered_sum, dot, static_cast<int>(lower[1]));
    return 0;
}
