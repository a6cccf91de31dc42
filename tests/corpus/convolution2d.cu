// cufront-corpus: std=c++17,c++20
// 2D image convolution: a __constant__ filter, a tiled kernel with a halo in
// dynamically sized extern shared memory, separable row/column passes, and a
// PGM writer for the result.
#include <cstdio>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

constexpr int kMaxRadius = 8;
__constant__ float c_filter[(2 * kMaxRadius + 1) * (2 * kMaxRadius + 1)];
__constant__ float c_row[2 * kMaxRadius + 1];

struct Image {
    int width, height;
    __device__ __host__ int clamp_x(int x) const { return x < 0 ? 0 : (x >= width ? width - 1 : x); }
    __device__ __host__ int clamp_y(int y) const { return y < 0 ? 0 : (y >= height ? height - 1 : y); }
};

__global__ void convolve_tiled(const float *in, float *out, Image img, int radius)
{
    extern __shared__ float tile[];
    const int tw = blockDim.x + 2 * radius;
    const int th = blockDim.y + 2 * radius;
    const int ox = blockIdx.x * blockDim.x - radius;
    const int oy = blockIdx.y * blockDim.y - radius;
    for (int ty = threadIdx.y; ty < th; ty += blockDim.y)
        for (int tx = threadIdx.x; tx < tw; tx += blockDim.x)
            tile[ty * tw + tx] = in[img.clamp_y(oy + ty) * img.width + img.clamp_x(ox + tx)];
    __syncthreads();

    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= img.width || y >= img.height)
        return;
    const int fw = 2 * radius + 1;
    float sum = 0.0f;
    for (int fy = 0; fy < fw; ++fy)
        for (int fx = 0; fx < fw; ++fx)
            sum += c_filter[fy * fw + fx] * tile[(threadIdx.y + fy) * tw + threadIdx.x + fx];
    out[y * img.width + x] = sum;
}

template <bool Horizontal>
__global__ void convolve_separable(const float *in, float *out, Image img, int radius)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= img.width || y >= img.height)
        return;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        int sx = Horizontal ? img.clamp_x(x + k) : x;
        int sy = Horizontal ? y : img.clamp_y(y + k);
        sum += c_row[k + radius] * in[sy * img.width + sx];
    }
    out[y * img.width + x] = sum;
}

static std::vector<float> gaussian_1d(int radius, float sigma)
{
    std::vector<float> w(2 * radius + 1);
    float total = 0.0f;
    for (int i = -radius; i <= radius; ++i)
        total += w[i + radius] = std::exp(-(i * i) / (2.0f * sigma * sigma));
    for (float &v : w)
        v /= total;
    return w;
}

static void write_pgm(const std::string &path, const std::vector<float> &px, int w, int h)
{
    std::ofstream f(path, std::ios::binary);
    f << "P5\n" << w << ' ' << h << "\n255\n";
    for (float v : px)
        f.put(static_cast<char>(std::clamp(v, 0.0f, 255.0f)));
}

int main(int argc, char **argv)
{
    const Image img{640, 480};
    const int radius = 4;
    std::vector<float> h(img.width * img.height);
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
            h[y * img.width + x] = ((x / 32 + y / 32) % 2) ? 255.0f : 0.0f;

    auto g = gaussian_1d(radius, 2.0f);
    std::vector<float> g2((2 * radius + 1) * (2 * radius + 1));
    for (int i = 0; i <= 2 * radius; ++i)
        for (int j = 0; j <= 2 * radius; ++j)
            g2[i * (2 * radius + 1) + j] = g[i] * g[j];
    cudaMemcpyToSymbol(c_filter, g2.data(), g2.size() * sizeof(float));
    cudaMemcpyToSymbol(c_row, g.data(), g.size() * sizeof(float));

    const size_t bytes = h.size() * sizeof(float);
    float *d_in, *d_out, *d_tmp, *d_out2;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMalloc(&d_tmp, bytes);
    cudaMalloc(&d_out2, bytes);
    cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice);

    dim3 block(16, 16);
    dim3 grid((img.width + 15) / 16, (img.height + 15) / 16);
    size_t smem = (block.x + 2 * radius) * (block.y + 2 * radius) * sizeof(float);
    convolve_tiled<<<grid, block, smem>>>(d_in, d_out, img, radius);
    convolve_separable<true><<<grid, block>>>(d_in, d_tmp, img, radius);
    convolve_separable<false><<<grid, block>>>(d_tmp, d_out2, img, radius);

    std::vector<float> a(h.size()), b(h.size());
    cudaMemcpy(a.data(), d_out, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), d_out2, bytes, cudaMemcpyDeviceToHost);
    float diff = 0.0f;
    for (size_t i = 0; i < a.size(); ++i)
        diff = std::max(diff, std::fabs(a[i] - b[i]));
    std::printf("2D vs separable max diff: %g\n", diff);
    if (argc > 1)
        write_pgm(argv[1], a, img.width, img.height);

    for (float *p : {d_in, d_out, d_tmp, d_out2})
        cudaFree(p);
    return diff < 1e-2f ? 0 : 1;
}
