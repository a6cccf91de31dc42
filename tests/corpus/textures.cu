// cufront-corpus: std=c++17,c++20
// Texture and surface objects: a 2D float texture over a CUDA array with
// bilinear filtering for image resampling, a 1D linear-memory texture, and
// a surface object written by a kernel.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cmath>
#include <cuda_runtime.h>

__global__ void resample(cudaTextureObject_t tex, float *out, int out_w, int out_h, float angle)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out_w || y >= out_h)
        return;
    float u = x / float(out_w) - 0.5f;
    float v = y / float(out_h) - 0.5f;
    float c = cosf(angle), s = sinf(angle);
    float tu = u * c - v * s + 0.5f;
    float tv = u * s + v * c + 0.5f;
    out[y * out_w + x] = tex2D<float>(tex, tu, tv);
}

__global__ void gather_linear(cudaTextureObject_t tex, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(tex, idx[i]);
}

__global__ void fill_surface(cudaSurfaceObject_t surf, int w, int h, unsigned frame)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        uchar4 px = make_uchar4(x & 0xff, y & 0xff, frame & 0xff, 255);
        surf2Dwrite(px, surf, x * int(sizeof(uchar4)), y);
    }
}

static cudaTextureObject_t make_image_texture(cudaArray_t array)
{
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;

    cudaTextureDesc desc;
    std::memset(&desc, 0, sizeof desc);
    desc.addressMode[0] = cudaAddressModeWrap;
    desc.addressMode[1] = cudaAddressModeWrap;
    desc.filterMode = cudaFilterModeLinear;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 1;

    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &desc, nullptr);
    return tex;
}

int main()
{
    const int w = 256, h = 256;
    std::vector<float> img(w * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            img[y * w + x] = std::sin(x * 0.1f) * std::cos(y * 0.1f);

    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    cudaMallocArray(&array, &fdesc, w, h);
    cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    cudaTextureObject_t tex = make_image_texture(array);

    float *out;
    cudaMalloc(&out, w * h * sizeof(float));
    dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    resample<<<grid, block>>>(tex, out, w, h, 0.3f);

    // 1D texture over linear memory.
    float *lin;
    cudaMalloc(&lin, w * h * sizeof(float));
    cudaMemcpy(lin, img.data(), w * h * sizeof(float), cudaMemcpyHostToDevice);
    cudaResourceDesc lres{};
    lres.resType = cudaResourceTypeLinear;
    lres.res.linear.devPtr = lin;
    lres.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    lres.res.linear.sizeInBytes = w * h * sizeof(float);
    cudaTextureDesc ldesc{};
    ldesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t ltex = 0;
    cudaCreateTextureObject(&ltex, &lres, &ldesc, nullptr);
    std::vector<int> idx(1000);
    for (int i = 0; i < 1000; ++i)
        idx[i] = (i * 37) % (w * h);
    int *d_idx;
    cudaMalloc(&d_idx, idx.size() * sizeof(int));
    cudaMemcpy(d_idx, idx.data(), idx.size() * sizeof(int), cudaMemcpyHostToDevice);
    gather_linear<<<4, 256>>>(ltex, d_idx, out, 1000);

    // Surface: an RGBA8 array written by a kernel.
    cudaChannelFormatDesc rgba = cudaCreateChannelDesc<uchar4>();
    cudaArray_t surf_array;
    cudaMallocArray(&surf_array, &rgba, w, h, cudaArraySurfaceLoadStore);
    cudaResourceDesc sres{};
    sres.resType = cudaResourceTypeArray;
    sres.res.array.array = surf_array;
    cudaSurfaceObject_t surf = 0;
    cudaCreateSurfaceObject(&surf, &sres);
    fill_surface<<<grid, block>>>(surf, w, h, 1u);

    float first = 0;
    cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
    std::printf("first sample %f, status %s\n", first, cudaGetErrorString(cudaDeviceSynchronize()));

    cudaDestroySurfaceObject(surf);
    cudaDestroyTextureObject(ltex);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(surf_array);
    cudaFreeArray(array);
    cudaFree(d_idx);
    cudaFree(lin);
    cudaFree(out);
    return 0;
}
