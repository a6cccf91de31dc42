// cufront-corpus: std=c++17,c++20
// Jacobi iteration for the 2D Poisson equation on unified (managed) memory:
// prefetching with cudaMemPrefetchAsync, a residual norm computed with a
// block reduction and atomicAdd on double, and convergence checked on the host.
#include <cmath>
#include <cstdio>
#include <utility>
#include <cuda_runtime.h>

struct Grid2D {
    int nx, ny;
    double h;
    __host__ __device__ int at(int i, int j) const { return j * nx + i; }
    __host__ __device__ size_t cells() const { return size_t(nx) * ny; }
};

__device__ __host__ inline double source_term(double x, double y)
{
    const double pi = 3.14159265358979323846;
    return 2.0 * pi * pi * sin(pi * x) * sin(pi * y);
}

__global__ void jacobi_step(Grid2D g, const double *__restrict__ u, double *__restrict__ u_new,
                            const double *__restrict__ f, double *residual)
{
    __shared__ double block_res[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int t = threadIdx.y * blockDim.x + threadIdx.x;
    double r = 0.0;
    if (i > 0 && j > 0 && i < g.nx - 1 && j < g.ny - 1) {
        const int c = g.at(i, j);
        double v = 0.25 * (u[g.at(i - 1, j)] + u[g.at(i + 1, j)] + u[g.at(i, j - 1)] + u[g.at(i, j + 1)] +
                           g.h * g.h * f[c]);
        r = (v - u[c]) * (v - u[c]);
        u_new[c] = v;
    }
    block_res[t] = r;
    __syncthreads();
    for (int s = blockDim.x * blockDim.y / 2; s > 0; s >>= 1) {
        if (t < s)
            block_res[t] += block_res[t + s];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(residual, block_res[0]);
}

int main()
{
    const int n = 130;
    const Grid2D g{n, n, 1.0 / (n - 1)};
    double *u, *u_new, *f, *residual;
    cudaMallocManaged(&u, g.cells() * sizeof(double));
    cudaMallocManaged(&u_new, g.cells() * sizeof(double));
    cudaMallocManaged(&f, g.cells() * sizeof(double));
    cudaMallocManaged(&residual, sizeof(double));
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            u[g.at(i, j)] = u_new[g.at(i, j)] = 0.0;
            f[g.at(i, j)] = source_term(i * g.h, j * g.h);
        }

    int device = 0;
    cudaGetDevice(&device);
    cudaMemLocation loc{};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = device;
    for (double *p : {u, u_new, f})
        cudaMemPrefetchAsync(p, g.cells() * sizeof(double), loc, 0, nullptr);

    dim3 block(16, 16), grid((g.nx + 15) / 16, (g.ny + 15) / 16);
    int iter = 0;
    double norm = 1.0;
    const double tol = 1e-8;
    for (; iter < 20000 && norm > tol; ++iter) {
        *residual = 0.0;
        jacobi_step<<<grid, block>>>(g, u, u_new, f, residual);
        cudaDeviceSynchronize();
        norm = std::sqrt(*residual);
        std::swap(u, u_new);
    }

    double max_err = 0.0;
    const double pi = 3.14159265358979323846;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            max_err = std::fmax(max_err, std::fabs(u[g.at(i, j)] - std::sin(pi * i * g.h) * std::sin(pi * j * g.h)));
    std::printf("iterations=%d residual=%.3e max error=%.3e\n", iter, norm, max_err);
    cudaFree(u);
    cudaFree(u_new);
    cudaFree(f);
    cudaFree(residual);
    return max_err < 1e-2 ? 0 : 1;
}
