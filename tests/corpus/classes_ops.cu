// cufront-corpus: std=c++17,c++20
// Classes used on both sides: a complex number and a small fixed-size matrix
// with overloaded operators, device-side member functions, a polymorphic
// host interface with an RAII device buffer, friend functions and operator<<.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

template <typename T>
class Complex {
public:
    __host__ __device__ constexpr Complex(T re = T(), T im = T()) : re_(re), im_(im) {}
    __host__ __device__ constexpr T real() const { return re_; }
    __host__ __device__ constexpr T imag() const { return im_; }
    __host__ __device__ Complex operator+(const Complex &o) const { return {re_ + o.re_, im_ + o.im_}; }
    __host__ __device__ Complex operator-(const Complex &o) const { return {re_ - o.re_, im_ - o.im_}; }
    __host__ __device__ Complex operator*(const Complex &o) const
    {
        return {re_ * o.re_ - im_ * o.im_, re_ * o.im_ + im_ * o.re_};
    }
    __host__ __device__ Complex &operator*=(const Complex &o) { return *this = *this * o; }
    __host__ __device__ Complex &operator+=(const Complex &o)
    {
        re_ += o.re_;
        im_ += o.im_;
        return *this;
    }
    __host__ __device__ bool operator==(const Complex &o) const { return re_ == o.re_ && im_ == o.im_; }
    __host__ __device__ bool operator!=(const Complex &o) const { return !(*this == o); }
    __host__ __device__ T norm2() const { return re_ * re_ + im_ * im_; }
    friend std::ostream &operator<<(std::ostream &os, const Complex &c)
    {
        return os << '(' << c.re_ << (c.im_ < 0 ? " - " : " + ") << std::abs(c.im_) << "i)";
    }

private:
    T re_, im_;
};

template <typename T, int N>
struct Mat {
    T m[N][N];
    __host__ __device__ static Mat identity()
    {
        Mat r{};
        for (int i = 0; i < N; ++i)
            r.m[i][i] = T(1);
        return r;
    }
    __host__ __device__ T *operator[](int row) { return m[row]; }
    __host__ __device__ const T *operator[](int row) const { return m[row]; }
    __host__ __device__ friend Mat operator*(const Mat &a, const Mat &b)
    {
        Mat r{};
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j)
                for (int k = 0; k < N; ++k)
                    r.m[i][j] += a.m[i][k] * b.m[k][j];
        return r;
    }
};

using C = Complex<float>;
using M2 = Mat<C, 2>;

__global__ void powers(const M2 *in, M2 *out, int n, int exponent)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    M2 acc = M2::identity();
    for (int e = 0; e < exponent; ++e)
        acc = acc * in[i];
    out[i] = acc;
}

template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(size_t n) : n_(n) { cudaMalloc(&p_, n * sizeof(T)); }
    ~DeviceArray() { cudaFree(p_); }
    DeviceArray(DeviceArray &&o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(o.n_) {}
    DeviceArray &operator=(DeviceArray &&o) noexcept
    {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        return *this;
    }
    T *data() { return p_; }
    size_t size() const { return n_; }
    void upload(const std::vector<T> &h) { cudaMemcpy(p_, h.data(), n_ * sizeof(T), cudaMemcpyHostToDevice); }
    std::vector<T> download() const
    {
        std::vector<T> h(n_);
        cudaMemcpy(h.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost);
        return h;
    }

private:
    T *p_ = nullptr;
    size_t n_ = 0;
};

class Job {
public:
    virtual ~Job() = default;
    virtual std::string name() const = 0;
    virtual void run() = 0;
};

class PowerJob final : public Job {
public:
    PowerJob(int n, int e) : in_(n), out_(n), exponent_(e) {}
    std::string name() const override { return "power^" + std::to_string(exponent_); }
    void run() override
    {
        std::vector<M2> h(in_.size());
        for (size_t i = 0; i < h.size(); ++i) {
            float t = 0.001f * i;
            h[i][0][0] = C(std::cos(t), std::sin(t));
            h[i][1][1] = C(std::cos(t), -std::sin(t));
        }
        in_.upload(h);
        powers<<<(unsigned(h.size()) + 127) / 128, 128>>>(in_.data(), out_.data(), int(h.size()), exponent_);
        auto r = out_.download();
        std::cout << name() << ": " << r.back()[0][0] << '\n';
    }

private:
    DeviceArray<M2> in_, out_;
    int exponent_;
};

int main()
{
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(std::make_unique<PowerJob>(1000, 3));
    jobs.emplace_back(new PowerJob(500, 8));
    for (auto &j : jobs)
        j->run();
    constexpr C i(0.0f, 1.0f);
    static_assert(i.imag() == 1.0f, "constexpr complex");
    std::cout << "i*i = " << i * i << std::endl;
    return (i * i) != C(-1.0f, 0.0f);
}
