// cufront-corpus: std=c++17,c++20
// Mandelbrot and Julia sets rendered on the GPU with a 2D launch, a colour
// palette in constant memory, per-pixel escape-time iteration on a small
// complex type, supersampling, and a binary PPM writer.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include <cuda_runtime.h>

struct Cf {
    float re, im;
};
__host__ __device__ inline Cf operator+(Cf a, Cf b) { return {a.re + b.re, a.im + b.im}; }
__host__ __device__ inline Cf operator*(Cf a, Cf b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
__host__ __device__ inline float abs2(Cf a) { return a.re * a.re + a.im * a.im; }

struct Rgb {
    uint8_t r, g, b;
};

constexpr int kPalette = 16;
__constant__ Rgb c_palette[kPalette];

enum class Fractal { Mandelbrot, Julia };

struct View {
    float cx, cy, scale;
    int width, height, max_iter, samples;
    Cf julia_c;
};

template <Fractal F>
__device__ int escape_time(Cf p, const View &v)
{
    Cf z = F == Fractal::Mandelbrot ? Cf{0.f, 0.f} : p;
    Cf c = F == Fractal::Mandelbrot ? p : v.julia_c;
    int it = 0;
    while (it < v.max_iter && abs2(z) <= 4.0f) {
        z = z * z + c;
        ++it;
    }
    return it;
}

template <Fractal F>
__global__ void render(Rgb *image, View v)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= v.width || y >= v.height)
        return;
    unsigned r = 0, g = 0, b = 0;
    for (int sy = 0; sy < v.samples; ++sy)
        for (int sx = 0; sx < v.samples; ++sx) {
            float fx = x + (sx + 0.5f) / v.samples;
            float fy = y + (sy + 0.5f) / v.samples;
            Cf p{v.cx + (fx - v.width * 0.5f) * v.scale, v.cy + (fy - v.height * 0.5f) * v.scale};
            int it = escape_time<F>(p, v);
            Rgb c = it == v.max_iter ? Rgb{0, 0, 0} : c_palette[it % kPalette];
            r += c.r;
            g += c.g;
            b += c.b;
        }
    const unsigned n = v.samples * v.samples;
    image[y * v.width + x] = Rgb{uint8_t(r / n), uint8_t(g / n), uint8_t(b / n)};
}

static bool write_ppm(const std::string &path, const std::vector<Rgb> &px, int w, int h)
{
    std::ofstream out(path, std::ios::binary);
    if (!out)
        return false;
    out << "P6\n" << w << " " << h << "\n255\n";
    out.write(reinterpret_cast<const char *>(px.data()), static_cast<std::streamsize>(px.size() * sizeof(Rgb)));
    return static_cast<bool>(out);
}

template <Fractal F>
std::vector<Rgb> draw(const View &v)
{
    Rgb *d_img;
    cudaMalloc(&d_img, v.width * v.height * sizeof(Rgb));
    dim3 block(16, 16), grid((v.width + 15) / 16, (v.height + 15) / 16);
    render<F><<<grid, block>>>(d_img, v);
    std::vector<Rgb> img(v.width * v.height);
    cudaMemcpy(img.data(), d_img, img.size() * sizeof(Rgb), cudaMemcpyDeviceToHost);
    cudaFree(d_img);
    return img;
}

int main(int argc, char **argv)
{
    Rgb palette[kPalette];
    for (int i = 0; i < kPalette; ++i)
        palette[i] = Rgb{uint8_t(i * 16), uint8_t(255 - i * 12), uint8_t((i * 40) % 256)};
    cudaMemcpyToSymbol(c_palette, palette, sizeof palette);

    View v{-0.5f, 0.0f, 3.0f / 800, 800, 600, 256, 2, {-0.8f, 0.156f}};
    auto m = draw<Fractal::Mandelbrot>(v);
    v.cx = 0.0f;
    auto j = draw<Fractal::Julia>(v);

    size_t inside = 0;
    for (const Rgb &p : m)
        inside += (p.r | p.g | p.b) == 0;
    std::printf("%zu of %zu pixels inside the set\n", inside, m.size());
    if (argc > 2) {
        write_ppm(argv[1], m, v.width, v.height);
        write_ppm(argv[2], j, v.width, v.height);
    }
    return 0;
}
