// cufront-corpus: std=c++17,c++20
// Row-wise softmax and layer normalization as used in transformer layers:
// one block per row, warp-shuffle reductions, half-precision inputs with
// float accumulation.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace kernels {

template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, m));
    return v;
}

// Reduces across the block with `op` applied per warp, then across warps.
template <typename Op>
__device__ float block_reduce(float v, Op warp_op, float *scratch)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_op(v);
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    const int warps = (blockDim.x + 31) >> 5;
    v = threadIdx.x < warps ? scratch[threadIdx.x] : scratch[0];
    if (warp == 0)
        v = warp_op(v);
    if (threadIdx.x == 0)
        scratch[0] = v;
    __syncthreads();
    float r = scratch[0];
    __syncthreads();
    return r;
}

__global__ void softmax_rows(const __half *in, float *out, int cols)
{
    __shared__ float scratch[32];
    const __half *row = in + size_t(blockIdx.x) * cols;
    float *orow = out + size_t(blockIdx.x) * cols;

    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, __half2float(row[c]));
    m = block_reduce(m, [](float v) { return warp_max(v); }, scratch);

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float e = __expf(__half2float(row[c]) - m);
        orow[c] = e;
        s += e;
    }
    s = block_reduce(s, [](float v) { return warp_sum(v); }, scratch);
    const float inv = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        orow[c] *= inv;
}

__global__ void layernorm_rows(const float *in, float *out, const float *gamma, const float *beta, int cols, float eps)
{
    __shared__ float scratch[32];
    const float *row = in + size_t(blockIdx.x) * cols;
    float *orow = out + size_t(blockIdx.x) * cols;
    float sum = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sum += row[c];
    const float mean = block_reduce(sum, [](float v) { return warp_sum(v); }, scratch) / cols;
    float var = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float d = row[c] - mean;
        var += d * d;
    }
    var = block_reduce(var, [](float v) { return warp_sum(v); }, scratch) / cols;
    const float rstd = rsqrtf(var + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        orow[c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}

} // namespace kernels

int main()
{
    const int rows = 64, cols = 1000;
    std::vector<__half> h(rows * cols);
    for (int i = 0; i < rows * cols; ++i)
        h[i] = __float2half(std::sin(0.37f * i) * 4.0f);
    std::vector<float> gamma(cols, 1.0f), beta(cols, 0.0f);

    __half *d_in;
    float *d_soft, *d_norm, *d_gamma, *d_beta;
    cudaMalloc(&d_in, h.size() * sizeof(__half));
    cudaMalloc(&d_soft, h.size() * sizeof(float));
    cudaMalloc(&d_norm, h.size() * sizeof(float));
    cudaMalloc(&d_gamma, cols * sizeof(float));
    cudaMalloc(&d_beta, cols * sizeof(float));
    cudaMemcpy(d_in, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice);
    cudaMemcpy(d_gamma, gamma.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_beta, beta.data(), cols * sizeof(float), cudaMemcpyHostToDevice);

    kernels::softmax_rows<<<rows, 256>>>(d_in, d_soft, cols);
    kernels::layernorm_rows<<<rows, 256>>>(d_soft, d_norm, d_gamma, d_beta, cols, 1e-5f);

    std::vector<float> soft(h.size()), norm(h.size());
    cudaMemcpy(soft.data(), d_soft, soft.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(norm.data(), d_norm, norm.size() * sizeof(float), cudaMemcpyDeviceToHost);
    double worst = 0.0;
    for (int r = 0; r < rows; ++r) {
        double s = 0.0;
        for (int c = 0; c < cols; ++c)
            s += soft[r * cols + c];
        worst = std::fmax(worst, std::fabs(s - 1.0));
    }
    std::printf("max |row sum - 1| = %g, norm[0] = %f\n", worst, norm[0]);
    cudaFree(d_in);
    cudaFree(d_soft);
    cudaFree(d_norm);
    cudaFree(d_gamma);
    cudaFree(d_beta);
    return worst < 1e-4 ? 0 : 1;
}
