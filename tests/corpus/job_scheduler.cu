// cufront-corpus: std=c++17,c++20
// A multi-threaded host scheduler: worker threads each own a CUDA stream,
// pull jobs from a mutex/condition-variable queue, and hand results back
// through std::promise/std::future.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

__global__ void polynomial(const float *x, float *y, int n, float a, float b, float c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = (a * x[i] + b) * x[i] + c;
}

struct Job {
    std::vector<float> input;
    float a, b, c;
    std::promise<std::vector<float>> result;
};

class Scheduler {
public:
    explicit Scheduler(unsigned workers)
    {
        for (unsigned w = 0; w < workers; ++w)
            threads_.emplace_back([this, w] { worker(w); });
    }

    ~Scheduler()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        ready_.notify_all();
        for (auto &t : threads_)
            t.join();
    }

    std::future<std::vector<float>> submit(std::vector<float> input, float a, float b, float c)
    {
        auto job = std::make_unique<Job>();
        job->input = std::move(input);
        job->a = a;
        job->b = b;
        job->c = c;
        auto fut = job->result.get_future();
        {
            std::unique_lock<std::mutex> lock(mutex_);
            queue_.push_back(std::move(job));
        }
        ready_.notify_one();
        return fut;
    }

    int completed() const { return completed_.load(); }

private:
    void worker(unsigned id)
    {
        cudaStream_t stream;
        cudaStreamCreate(&stream);
        for (;;) {
            std::unique_ptr<Job> job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
                if (queue_.empty())
                    break;
                job = std::move(queue_.front());
                queue_.pop_front();
            }
            run(*job, stream);
            completed_.fetch_add(1);
        }
        cudaStreamDestroy(stream);
        (void)id;
    }

    static void run(Job &job, cudaStream_t stream)
    {
        const int n = static_cast<int>(job.input.size());
        float *d_x = nullptr, *d_y = nullptr;
        cudaMallocAsync(&d_x, n * sizeof(float), stream);
        cudaMallocAsync(&d_y, n * sizeof(float), stream);
        cudaMemcpyAsync(d_x, job.input.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
        polynomial<<<(n + 127) / 128, 128, 0, stream>>>(d_x, d_y, n, job.a, job.b, job.c);
        std::vector<float> out(n);
        cudaMemcpyAsync(out.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
        cudaFreeAsync(d_x, stream);
        cudaFreeAsync(d_y, stream);
        cudaError_t err = cudaStreamSynchronize(stream);
        if (err != cudaSuccess)
            job.result.set_exception(std::make_exception_ptr(std::runtime_error(cudaGetErrorString(err))));
        else
            job.result.set_value(std::move(out));
    }

    std::vector<std::thread> threads_;
    std::deque<std::unique_ptr<Job>> queue_;
    std::mutex mutex_;
    std::condition_variable ready_;
    bool stopping_ = false;
    std::atomic<int> completed_{0};
};

int main()
{
    unsigned workers = std::max(2u, std::thread::hardware_concurrency() / 2);
    Scheduler sched(workers);
    std::vector<std::future<std::vector<float>>> futures;
    for (int j = 0; j < 16; ++j) {
        std::vector<float> xs(1000 + j * 10);
        for (size_t i = 0; i < xs.size(); ++i)
            xs[i] = static_cast<float>(i) / xs.size();
        futures.push_back(sched.submit(std::move(xs), 1.0f, float(j), 0.5f));
    }
    double checksum = 0.0;
    for (auto &f : futures) {
        try {
            auto ys = f.get();
            checksum += ys.back();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "job failed: %s\n", e.what());
        }
    }
    std::printf("workers=%u checksum=%.3f\n", workers, checksum);
    return 0;
}
