// cufront-corpus: std=c++17,c++20
// All-pairs n-body simulation: float4 bodies, shared-memory tiles of bodies,
// rsqrtf, a small vector class with operators, leapfrog integration.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
#include <cuda_runtime.h>

struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ Vec3(float x_, float y_, float z_) : x(x_), y(y_), z(z_) {}
    __host__ __device__ Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
    __host__ __device__ Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    __host__ __device__ Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
    __host__ __device__ Vec3 &operator+=(const Vec3 &o)
    {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __host__ __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

__host__ __device__ inline Vec3 xyz(float4 p) { return Vec3(p.x, p.y, p.z); }

constexpr float kSoftening = 1e-3f;

__device__ Vec3 body_body(float4 bi, float4 bj, Vec3 acc)
{
    Vec3 r = xyz(bj) - xyz(bi);
    float dist2 = r.dot(r) + kSoftening * kSoftening;
    float inv = rsqrtf(dist2);
    float inv3 = inv * inv * inv;
    return acc + r * (bj.w * inv3);
}

template <int TILE>
__global__ void accelerations(const float4 *__restrict__ pos, float3 *__restrict__ acc, int n)
{
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    Vec3 a;
    for (int start = 0; start < n; start += TILE) {
        int j = start + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TILE; ++k)
            a = body_body(me, tile[k], a);
        __syncthreads();
    }
    if (i < n)
        acc[i] = make_float3(a.x, a.y, a.z);
}

__global__ void integrate(float4 *pos, float3 *vel, const float3 *acc, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float3 v = vel[i];
    v.x += acc[i].x * dt;
    v.y += acc[i].y * dt;
    v.z += acc[i].z * dt;
    vel[i] = v;
    float4 p = pos[i];
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    pos[i] = p;
}

static double kinetic_energy(const std::vector<float4> &pos, const std::vector<float3> &vel)
{
    double e = 0.0;
    for (size_t i = 0; i < pos.size(); ++i)
        e += 0.5 * pos[i].w * (vel[i].x * vel[i].x + vel[i].y * vel[i].y + vel[i].z * vel[i].z);
    return e;
}

int main()
{
    constexpr int TILE = 128;
    const int n = 4096;
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.f, 1.f);
    std::uniform_real_distribution<float> mass(0.5f, 1.5f);
    std::vector<float4> pos(n);
    std::vector<float3> vel(n, make_float3(0.f, 0.f, 0.f));
    for (auto &p : pos)
        p = make_float4(normal(rng), normal(rng), normal(rng), mass(rng));

    float4 *d_pos;
    float3 *d_vel, *d_acc;
    cudaMalloc(&d_pos, n * sizeof(float4));
    cudaMalloc(&d_vel, n * sizeof(float3));
    cudaMalloc(&d_acc, n * sizeof(float3));
    cudaMemcpy(d_pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vel, vel.data(), n * sizeof(float3), cudaMemcpyHostToDevice);

    const int blocks = (n + TILE - 1) / TILE;
    const float dt = 0.001f;
    for (int step = 0; step < 10; ++step) {
        accelerations<TILE><<<blocks, TILE>>>(d_pos, d_acc, n);
        integrate<<<blocks, TILE>>>(d_pos, d_vel, d_acc, dt, n);
    }
    cudaMemcpy(pos.data(), d_pos, n * sizeof(float4), cudaMemcpyDeviceToHost);
    cudaMemcpy(vel.data(), d_vel, n * sizeof(float3), cudaMemcpyDeviceToHost);
    std::printf("kinetic energy after 10 steps: %.6f\n", kinetic_energy(pos, vel));

    cudaFree(d_pos);
    cudaFree(d_vel);
    cudaFree(d_acc);
    return 0;
}
