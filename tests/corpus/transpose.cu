// cufront-corpus: std=c++17,c++20
// Matrix transpose: naive, coalesced through a padded shared tile, and a
// copy kernel as the bandwidth ceiling; timed with events, reported in GB/s.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <functional>
#include <cuda_runtime.h>

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

__global__ void copy_kernel(float *odata, const float *idata, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            odata[(y + j) * width + x] = idata[(y + j) * width + x];
}

__global__ void transpose_naive(float *odata, const float *idata, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transpose_coalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];   // +1 avoids bank conflicts
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

using Kernel = void (*)(float *, const float *, int, int);

struct Benchmark {
    std::string name;
    Kernel kernel;
    bool transposes;
};

static bool check(const std::vector<float> &in, const std::vector<float> &out, int w, int h, bool transposed)
{
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float expect = in[y * w + x];
            float got = transposed ? out[x * h + y] : out[y * w + x];
            if (expect != got)
                return false;
        }
    return true;
}

int main()
{
    const int width = 1000, height = 700;
    const size_t bytes = size_t(width) * height * sizeof(float);
    std::vector<float> h_in(size_t(width) * height), h_out(h_in.size());
    for (size_t i = 0; i < h_in.size(); ++i)
        h_in[i] = static_cast<float>(i);

    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice);

    dim3 grid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    const Benchmark benches[] = {
        {"copy", copy_kernel, false},
        {"naive transpose", transpose_naive, true},
        {"coalesced transpose", transpose_coalesced, true},
    };
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    int failures = 0;
    for (const Benchmark &b : benches) {
        cudaMemset(d_out, 0, bytes);
        b.kernel<<<grid, block>>>(d_out, d_in, width, height);   // warm up
        const int reps = 10;
        cudaEventRecord(start);
        for (int r = 0; r < reps; ++r)
            b.kernel<<<grid, block>>>(d_out, d_in, width, height);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
        bool ok = check(h_in, h_out, width, height, b.transposes);
        failures += !ok;
        double gbps = 2.0 * bytes * reps / (ms * 1e-3) / 1e9;
        std::printf("%-22s %8.2f GB/s %s\n", b.name.c_str(), gbps, ok ? "" : "(WRONG)");
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d_in);
    cudaFree(d_out);
    return failures;
}
