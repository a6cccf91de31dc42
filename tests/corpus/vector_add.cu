// cufront-corpus: std=c++17,c++20
// Vector addition with a grid-stride loop, pinned host memory, events for
// timing and a host-side check of the result.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,  \
                         #call, cudaGetErrorString(err_));                      \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

__global__ void vector_add(const float *__restrict__ a, const float *__restrict__ b,
                           float *__restrict__ c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        c[i] = a[i] + b[i];
    }
}

__global__ void axpby(float alpha, const float *x, float beta, float *y, size_t n)
{
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
    for (; i < n; i += stride)
        y[i] = alpha * x[i] + beta * y[i];
}

static int blocks_for(int n, int threads, int max_blocks)
{
    int blocks = (n + threads - 1) / threads;
    return blocks < max_blocks ? blocks : max_blocks;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20);
    const size_t bytes = n * sizeof(float);

    float *h_a, *h_b, *h_c;
    CUDA_CHECK(cudaMallocHost(&h_a, bytes));
    CUDA_CHECK(cudaMallocHost(&h_b, bytes));
    CUDA_CHECK(cudaMallocHost(&h_c, bytes));
    for (int i = 0; i < n; ++i) {
        h_a[i] = std::sin(i * 0.001f);
        h_b[i] = std::cos(i * 0.001f);
    }

    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));

    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int threads = 256;
    const int blocks = blocks_for(n, threads, 32 * sms);

    CUDA_CHECK(cudaEventRecord(start));
    vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    CUDA_CHECK(cudaGetLastError());
    axpby<<<blocks, threads>>>(2.0f, d_a, 0.5f, d_c, static_cast<size_t>(n));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));

    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));

    std::vector<int> bad;
    for (int i = 0; i < n; ++i) {
        float expect = 2.0f * h_a[i] + 0.5f * (h_a[i] + h_b[i]);
        if (std::fabs(h_c[i] - expect) > 1e-5f)
            bad.push_back(i);
    }
    std::printf("n=%d blocks=%d time=%.3f ms mismatches=%zu\n", n, blocks, ms, bad.size());

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    CUDA_CHECK(cudaFreeHost(h_a));
    CUDA_CHECK(cudaFreeHost(h_b));
    CUDA_CHECK(cudaFreeHost(h_c));
    return bad.empty() ? EXIT_SUCCESS : EXIT_FAILURE;
}
