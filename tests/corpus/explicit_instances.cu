// cufront-corpus: std=c++17
// Explicit instantiations, as libraries that compile their kernel
// templates once per type in their own translation units do (ggml's
// template instances): kernels, device and host function templates
// instantiated by macro for several types, an `extern template`
// declaration, a host dispatch table over the instantiated kernels, and a
// class template instantiated explicitly whose members launch kernel
// instances that nothing else names.
#include <cstdio>
#include <cuda_runtime.h>

template <typename T>
__device__ T clamp_value(T v, T lo, T hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T, int BLOCK>
__global__ void clamp_kernel(T *data, int n, T lo, T hi)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) {
        data[i] = clamp_value(data[i], lo, hi);
    }
}

template <typename T>
__global__ void fill_kernel(T *data, int n, T value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = value;
    }
}

template <typename T>
T host_checksum(const T *data, int n)
{
    T sum = T(0);
    for (int i = 0; i < n; ++i) {
        sum += data[i];
    }
    return sum;
}

#define INSTANTIATE_CLAMP(T) \
    template __global__ void clamp_kernel<T, 128>(T *, int, T, T); \
    template __device__ T clamp_value<T>(T, T, T);

INSTANTIATE_CLAMP(float)
INSTANTIATE_CLAMP(int)
INSTANTIATE_CLAMP(double)

template __global__ void fill_kernel(float *, int, float);
template __global__ void fill_kernel<int>(int *, int, int);
template float host_checksum(const float *, int);
extern template int host_checksum<int>(const int *, int);

// A launcher class instantiated once per type, as libraries do: every
// member it defines is instantiated, one defined after the instantiation
// too, and so are its member class's; its member template is not.
template <typename T>
struct Launcher {
    void fill(T *data, int n, T value);
    void clamp(T *data, int n) { clamp_kernel<T, 64><<<(n + 63) / 64, 64>>>(data, n, T(0), T(1)); }
    __device__ T twice(T v) const { return v + v; }
    struct Stats {
        __host__ __device__ T zero() const { return T(0); }
        void reset(T *data, int n) { clamp_kernel<T, 32><<<(n + 31) / 32, 32>>>(data, n, T(0), T(0)); }
    };
    template <typename U>
    void convert(U *out, int n) { fill_kernel<U><<<1, 32>>>(out, n, U(1)); }
};

template struct Launcher<double>;
template struct Launcher<int>::Stats;

template <typename T>
void Launcher<T>::fill(T *data, int n, T value)
{
    fill_kernel<T><<<(n + 127) / 128, 128>>>(data, n, value);
}

using clamp_fn = void (*)(float *, int, float, float);

static const clamp_fn clamp_table[] = {clamp_kernel<float, 128>};

int main()
{
    const int n = 1000;
    float *d = nullptr;
    cudaMalloc(&d, n * sizeof(float));
    fill_kernel<float><<<(n + 127) / 128, 128>>>(d, n, 3.5f);
    clamp_table[0]<<<(n + 127) / 128, 128>>>(d, n, 0.0f, 1.0f);
    float h[n] = {};
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    std::printf("checksum %f\n", host_checksum(h, n));
    cudaFree(d);
    return 0;
}
