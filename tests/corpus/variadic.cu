// cufront-corpus: std=c++17,c++20 flags=--expt-relaxed-constexpr
// Variadic templates in device code: parameter packs passed to kernels, fold
// expressions, index sequences, a tuple of arrays (structure of arrays),
// and a printf-style logger.
#include <cstdio>
#include <tuple>
#include <utility>
#include <array>
#include <type_traits>
#include <cuda_runtime.h>

template <typename... Ts>
__host__ __device__ constexpr auto sum_all(Ts... xs)
{
    return (xs + ... + 0);
}

template <typename... Ts>
__host__ __device__ constexpr bool all_positive(Ts... xs)
{
    return ((xs > 0) && ...);
}

template <typename T, typename... Rest>
struct max_size {
    static constexpr size_t value = sizeof(T) > max_size<Rest...>::value ? sizeof(T) : max_size<Rest...>::value;
};
template <typename T>
struct max_size<T> {
    static constexpr size_t value = sizeof(T);
};

// A structure of arrays: one pointer per field type.
template <typename... Fields>
struct Soa {
    std::tuple<Fields *...> columns;
    int size;

    template <size_t I>
    __host__ __device__ auto &column() { return std::get<I>(columns); }
};

template <typename... Fields, size_t... I>
__device__ void scale_row(Soa<Fields...> &soa, int row, float factor, std::index_sequence<I...>)
{
    ((soa.template column<I>()[row] = static_cast<Fields>(soa.template column<I>()[row] * factor)), ...);
}

template <typename... Fields>
__global__ void scale_all(Soa<Fields...> soa, float factor)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < soa.size)
        scale_row(soa, row, factor, std::index_sequence_for<Fields...>{});
}

template <typename F, typename... Args>
__global__ void invoke_kernel(F f, Args... args)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        f(args...);
}

struct Printer {
    template <typename... Args>
    __device__ void operator()(const char *fmt, Args... args) const
    {
        printf(fmt, args...);
    }
};

template <typename... Args>
void log_host(const char *fmt, Args &&...args)
{
    std::printf("[host] ");
    std::printf(fmt, std::forward<Args>(args)...);
}

template <typename Tuple, size_t... I>
void free_columns(Tuple &t, std::index_sequence<I...>)
{
    (cudaFree(std::get<I>(t)), ...);
}

template <typename... Fields>
Soa<Fields...> make_soa(int n)
{
    Soa<Fields...> soa{};
    soa.size = n;
    std::apply([n](auto *&...col) { (cudaMalloc(&col, n * sizeof(*col)), ...); }, soa.columns);
    std::apply([n](auto *...col) { (cudaMemset(col, 0, n * sizeof(*col)), ...); }, soa.columns);
    return soa;
}

int main()
{
    static_assert(sum_all(1, 2, 3, 4) == 10, "fold");
    static_assert(all_positive(1, 2.5, 3L), "fold &&");
    static_assert(max_size<char, double, short>::value == sizeof(double), "max_size");

    auto soa = make_soa<float, double, int>(1000);
    scale_all<<<4, 256>>>(soa, 2.0f);
    invoke_kernel<<<1, 1>>>(Printer{}, "%d %f %c\n", 42, 3.5, 'x');
    cudaDeviceSynchronize();
    log_host("%s has %d columns\n", "soa", int(std::tuple_size<decltype(soa.columns)>::value));
    free_columns(soa.columns, std::make_index_sequence<3>{});

    std::array<int, 4> a{1, 2, 3, 4};
    int total = std::apply([](auto... v) { return sum_all(v...); }, a);
    return total == 10 ? 0 : 1;
}
