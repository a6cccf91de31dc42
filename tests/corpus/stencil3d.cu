// cufront-corpus: std=c++17,c++20
// 3D seven-point heat stencil: 3D grid indexing, __constant__ coefficients,
// a 2.5D shared-memory variant that marches along z, and ping-pong buffers.
#include <cstdio>
#include <cmath>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

struct Dims {
    int nx, ny, nz;
    __host__ __device__ size_t index(int x, int y, int z) const { return (size_t(z) * ny + y) * nx + x; }
    __host__ __device__ size_t size() const { return size_t(nx) * ny * nz; }
    __host__ __device__ bool interior(int x, int y, int z) const
    {
        return x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1;
    }
};

__constant__ float c_coeff[2];   // centre, neighbour

__global__ void stencil_naive(const float *in, float *out, Dims d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= d.nx || y >= d.ny || z >= d.nz)
        return;
    size_t i = d.index(x, y, z);
    if (!d.interior(x, y, z)) {
        out[i] = in[i];
        return;
    }
    float nb = in[d.index(x - 1, y, z)] + in[d.index(x + 1, y, z)] + in[d.index(x, y - 1, z)] +
               in[d.index(x, y + 1, z)] + in[d.index(x, y, z - 1)] + in[d.index(x, y, z + 1)];
    out[i] = c_coeff[0] * in[i] + c_coeff[1] * nb;
}

template <int BX, int BY>
__global__ void stencil_marching(const float *__restrict__ in, float *__restrict__ out, Dims d)
{
    __shared__ float plane[BY + 2][BX + 2];
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    const bool inside = x < d.nx && y < d.ny;

    float below = 0.f, current = 0.f, above = 0.f;
    if (inside) {
        current = in[d.index(x, y, 0)];
        above = d.nz > 1 ? in[d.index(x, y, 1)] : 0.f;
    }
    for (int z = 0; z < d.nz; ++z) {
        __syncthreads();
        plane[ty][tx] = current;
        if (threadIdx.x == 0 && x > 0) plane[ty][0] = in[d.index(x - 1, y, z)];
        if (threadIdx.x == BX - 1 && x + 1 < d.nx) plane[ty][BX + 1] = in[d.index(x + 1, y, z)];
        if (threadIdx.y == 0 && y > 0) plane[0][tx] = in[d.index(x, y - 1, z)];
        if (threadIdx.y == BY - 1 && y + 1 < d.ny) plane[BY + 1][tx] = in[d.index(x, y + 1, z)];
        __syncthreads();
        if (inside) {
            size_t i = d.index(x, y, z);
            if (d.interior(x, y, z)) {
                float nb = plane[ty][tx - 1] + plane[ty][tx + 1] + plane[ty - 1][tx] + plane[ty + 1][tx] + below + above;
                out[i] = c_coeff[0] * current + c_coeff[1] * nb;
            } else {
                out[i] = current;
            }
        }
        below = current;
        current = above;
        above = (inside && z + 2 < d.nz) ? in[d.index(x, y, z + 2)] : 0.f;
    }
}

int main()
{
    const Dims d{64, 48, 40};
    const float alpha = 0.1f;
    const float coeff[2] = {1.0f - 6.0f * alpha, alpha};
    cudaMemcpyToSymbol(c_coeff, coeff, sizeof coeff);

    std::vector<float> h(d.size(), 0.0f);
    h[d.index(d.nx / 2, d.ny / 2, d.nz / 2)] = 1000.0f;

    float *a, *b, *c, *e;
    cudaMalloc(&a, d.size() * sizeof(float));
    cudaMalloc(&b, d.size() * sizeof(float));
    cudaMalloc(&c, d.size() * sizeof(float));
    cudaMalloc(&e, d.size() * sizeof(float));
    cudaMemcpy(a, h.data(), d.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(c, h.data(), d.size() * sizeof(float), cudaMemcpyHostToDevice);

    dim3 block3(8, 8, 4);
    dim3 grid3((d.nx + 7) / 8, (d.ny + 7) / 8, (d.nz + 3) / 4);
    constexpr int BX = 32, BY = 8;
    dim3 block2(BX, BY), grid2((d.nx + BX - 1) / BX, (d.ny + BY - 1) / BY);
    for (int step = 0; step < 20; ++step) {
        stencil_naive<<<grid3, block3>>>(a, b, d);
        stencil_marching<BX, BY><<<grid2, block2>>>(c, e, d);
        std::swap(a, b);
        std::swap(c, e);
    }
    std::vector<float> r1(d.size()), r2(d.size());
    cudaMemcpy(r1.data(), a, d.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(r2.data(), c, d.size() * sizeof(float), cudaMemcpyDeviceToHost);
    double diff = 0.0, total = 0.0;
    for (size_t i = 0; i < d.size(); ++i) {
        diff = std::fmax(diff, std::fabs(r1[i] - r2[i]));
        total += r1[i];
    }
    std::printf("heat total %.3f, max diff between kernels %g\n", total, diff);
    for (float *p : {a, b, c, e})
        cudaFree(p);
    return diff < 1e-3 ? 0 : 1;
}
