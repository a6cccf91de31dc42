// cufront-corpus: std=c++17,c++20
// C linkage declared once, kept by later declarations: functions declared
// `extern "C"` (as a C header declares them) and defined later without the
// linkage specification keep their C names, and the first of them keys the
// module id by its plain name. An overload of another signature is C++.
#include <cstdio>
#include <cuda_runtime.h>

typedef unsigned long length_t;

extern "C" int checksum(const int *values, unsigned long count);
extern "C" {
void report(int sum);
}

// Same parameter types through a typedef: the same function, C linkage.
int checksum(const int *values, length_t count)
{
    int sum = 0;
    for (length_t i = 0; i < count; ++i)
        sum += values[i];
    return sum;
}

void report(int sum) { std::printf("sum %d\n", sum); }

// Another signature: a C++ overload, mangled.
void report(double mean) { std::printf("mean %f\n", mean); }

namespace kernels {
extern "C" __global__ void fill(int *values);
}

__global__ void kernels::fill(int *values) { values[threadIdx.x] = threadIdx.x; }

int main()
{
    int host[32];
    for (int i = 0; i < 32; ++i)
        host[i] = i;
    report(checksum(host, 32));
    report(checksum(host, 32) / 32.0);
    int *dev = nullptr;
    if (cudaMalloc(&dev, sizeof host) != cudaSuccess)
        return 0;
    kernels::fill<<<1, 32>>>(dev);
    cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(dev);
    return 0;
}
