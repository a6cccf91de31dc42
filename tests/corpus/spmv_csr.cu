// cufront-corpus: std=c++17,c++20
// Sparse matrix-vector product in CSR format: one thread per row (scalar)
// and one warp per row (vector) with shuffle reduction; matrix built on the
// host from a 2D Laplacian, checked against a host SpMV.
#include <cstdio>
#include <cmath>
#include <vector>
#include <memory>
#include <stdexcept>
#include <cuda_runtime.h>

template <typename T>
struct CsrMatrix {
    int rows = 0, cols = 0;
    std::vector<int> row_ptr;
    std::vector<int> col_idx;
    std::vector<T> values;

    int nnz() const { return static_cast<int>(values.size()); }
};

template <typename T>
CsrMatrix<T> laplacian_2d(int nx, int ny)
{
    CsrMatrix<T> m;
    m.rows = m.cols = nx * ny;
    m.row_ptr.reserve(m.rows + 1);
    m.row_ptr.push_back(0);
    auto id = [nx](int x, int y) { return y * nx + x; };
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            auto add = [&](int c, T v) {
                m.col_idx.push_back(c);
                m.values.push_back(v);
            };
            if (y > 0) add(id(x, y - 1), T(-1));
            if (x > 0) add(id(x - 1, y), T(-1));
            add(id(x, y), T(4));
            if (x + 1 < nx) add(id(x + 1, y), T(-1));
            if (y + 1 < ny) add(id(x, y + 1), T(-1));
            m.row_ptr.push_back(m.nnz());
        }
    return m;
}

template <typename T>
__global__ void spmv_scalar(int rows, const int *row_ptr, const int *col_idx, const T *vals, const T *x, T *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        T dot = 0;
        for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j)
            dot += vals[j] * x[col_idx[j]];
        y[row] = dot;
    }
}

template <typename T>
__global__ void spmv_vector(int rows, const int *row_ptr, const int *col_idx, const T *vals, const T *x, T *y)
{
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows)
        return;
    T dot = 0;
    for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += 32)
        dot += vals[j] * __ldg(&x[col_idx[j]]);
    for (int off = 16; off > 0; off /= 2)
        dot += __shfl_down_sync(0xffffffff, dot, off);
    if (lane == 0)
        y[row] = dot;
}

// Owns a device allocation; frees it on scope exit.
template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t n) : n_(n)
    {
        if (cudaMalloc(&ptr_, n * sizeof(T)) != cudaSuccess)
            throw std::runtime_error("cudaMalloc failed");
    }
    DeviceBuffer(const std::vector<T> &host) : DeviceBuffer(host.size())
    {
        cudaMemcpy(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice);
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    ~DeviceBuffer() { cudaFree(ptr_); }
    T *get() const { return ptr_; }
    std::vector<T> to_host() const
    {
        std::vector<T> h(n_);
        cudaMemcpy(h.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost);
        return h;
    }

private:
    T *ptr_ = nullptr;
    size_t n_;
};

int main()
{
    using T = double;
    auto A = laplacian_2d<T>(200, 150);
    std::vector<T> x(A.cols);
    for (int i = 0; i < A.cols; ++i)
        x[i] = std::sin(0.01 * i);

    std::vector<T> ref(A.rows, T(0));
    for (int r = 0; r < A.rows; ++r)
        for (int j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j)
            ref[r] += A.values[j] * x[A.col_idx[j]];

    DeviceBuffer<int> rp(A.row_ptr), ci(A.col_idx);
    DeviceBuffer<T> vals(A.values), dx(x), y1(A.rows), y2(A.rows);
    spmv_scalar<<<(A.rows + 255) / 256, 256>>>(A.rows, rp.get(), ci.get(), vals.get(), dx.get(), y1.get());
    spmv_vector<<<(A.rows * 32 + 255) / 256, 256>>>(A.rows, rp.get(), ci.get(), vals.get(), dx.get(), y2.get());
    auto h1 = y1.to_host(), h2 = y2.to_host();

    double e1 = 0, e2 = 0;
    for (int r = 0; r < A.rows; ++r) {
        e1 = std::fmax(e1, std::fabs(h1[r] - ref[r]));
        e2 = std::fmax(e2, std::fabs(h2[r] - ref[r]));
    }
    std::printf("rows=%d nnz=%d scalar err=%g vector err=%g\n", A.rows, A.nnz(), e1, e2);
    return (e1 < 1e-9 && e2 < 1e-9) ? 0 : 1;
}
