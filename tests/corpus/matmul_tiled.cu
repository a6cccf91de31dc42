// cufront-corpus: std=c++17,c++20
// Tiled matrix multiply with shared memory, templated on the tile size, plus
// a naive kernel and a host reference for checking.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <random>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); std::abort(); } } while (0)

struct Matrix {
    int rows;
    int cols;
    int stride;
    float *data;

    __host__ __device__ float get(int r, int c) const { return data[r * stride + c]; }
    __host__ __device__ void set(int r, int c, float v) { data[r * stride + c] = v; }
    __host__ __device__ size_t bytes() const { return sizeof(float) * rows * stride; }
};

__global__ void matmul_naive(Matrix a, Matrix b, Matrix c)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= c.rows || col >= c.cols)
        return;
    float acc = 0.0f;
    for (int k = 0; k < a.cols; ++k)
        acc += a.get(row, k) * b.get(k, col);
    c.set(row, col, acc);
}

template <int TILE>
__global__ void matmul_tiled(Matrix a, Matrix b, Matrix c)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int t = 0; t < (a.cols + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + tx;
        int bk = t * TILE + ty;
        as[ty][tx] = (row < a.rows && ak < a.cols) ? a.get(row, ak) : 0.0f;
        bs[ty][tx] = (bk < b.rows && col < b.cols) ? b.get(bk, col) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    if (row < c.rows && col < c.cols)
        c.set(row, col, acc);
}

static Matrix device_matrix(int rows, int cols)
{
    Matrix m{rows, cols, cols, nullptr};
    CHECK(cudaMalloc(&m.data, m.bytes()));
    return m;
}

static void host_matmul(const std::vector<float> &a, const std::vector<float> &b,
                        std::vector<float> &c, int m, int k, int n)
{
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (int p = 0; p < k; ++p)
                acc += a[i * k + p] * b[p * n + j];
            c[i * n + j] = acc;
        }
}

template <int TILE>
float run_tiled(Matrix a, Matrix b, Matrix c)
{
    dim3 block(TILE, TILE);
    dim3 grid((c.cols + TILE - 1) / TILE, (c.rows + TILE - 1) / TILE);
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventRecord(t0));
    matmul_tiled<TILE><<<grid, block>>>(a, b, c);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return ms;
}

int main()
{
    const int M = 300, K = 200, N = 250;
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> ha(M * K), hb(K * N), hc(M * N), ref(M * N);
    std::generate(ha.begin(), ha.end(), [&] { return dist(rng); });
    std::generate(hb.begin(), hb.end(), [&] { return dist(rng); });

    Matrix a = device_matrix(M, K), b = device_matrix(K, N), c = device_matrix(M, N);
    CHECK(cudaMemcpy(a.data, ha.data(), a.bytes(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b.data, hb.data(), b.bytes(), cudaMemcpyHostToDevice));

    dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
    matmul_naive<<<grid, block>>>(a, b, c);
    CHECK(cudaGetLastError());
    float ms16 = run_tiled<16>(a, b, c);
    float ms32 = run_tiled<32>(a, b, c);
    CHECK(cudaMemcpy(hc.data(), c.data, c.bytes(), cudaMemcpyDeviceToHost));

    host_matmul(ha, hb, ref, M, K, N);
    float max_err = 0.0f;
    for (int i = 0; i < M * N; ++i)
        max_err = std::max(max_err, std::abs(ref[i] - hc[i]));
    std::printf("tile16 %.3f ms, tile32 %.3f ms, max error %g\n", ms16, ms32, max_err);

    cudaFree(a.data);
    cudaFree(b.data);
    cudaFree(c.data);
    return max_err < 1e-3f ? 0 : 1;
}
