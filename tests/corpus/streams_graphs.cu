// cufront-corpus: std=c++17,c++20
// Streams, events and graphs: overlapping chunked copies and kernels over
// several streams, inter-stream dependencies through events, a host
// callback, and the same pipeline captured into a CUDA graph and replayed.
#include <cstdio>
#include <vector>
#include <array>
#include <atomic>
#include <cuda_runtime.h>

#define CK(expr)                                                                              \
    do {                                                                                      \
        cudaError_t status_ = (expr);                                                         \
        if (status_ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "%s failed: %s\n", #expr, cudaGetErrorString(status_));     \
            return 1;                                                                         \
        }                                                                                     \
    } while (false)

__global__ void process(float *data, int n, float factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * factor + 1.0f;
}

__global__ void combine(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

static std::atomic<int> g_callbacks{0};
static std::atomic<int> g_chunk_mask{0};

static void CUDART_CB on_chunk_done(void *user)
{
    int chunk = *static_cast<int *>(user);
    g_callbacks.fetch_add(1, std::memory_order_relaxed);
    g_chunk_mask.fetch_or(1 << chunk, std::memory_order_relaxed);
}

int main()
{
    constexpr int kStreams = 4;
    const int n = 1 << 20;
    const int chunk = n / kStreams;
    float *h_data = nullptr;
    CK(cudaMallocHost(&h_data, n * sizeof(float)));
    for (int i = 0; i < n; ++i)
        h_data[i] = float(i % 100);

    float *d_a, *d_b, *d_out;
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));

    std::array<cudaStream_t, kStreams> streams;
    std::array<cudaEvent_t, kStreams> done;
    std::array<int, kStreams> ids;
    for (int s = 0; s < kStreams; ++s) {
        CK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
        CK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
        ids[s] = s;
    }

    // Chunked copy/compute overlap.
    for (int s = 0; s < kStreams; ++s) {
        const int off = s * chunk;
        CK(cudaMemcpyAsync(d_a + off, h_data + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        process<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(d_a + off, chunk, 2.0f);
        CK(cudaEventRecord(done[s], streams[s]));
        CK(cudaLaunchHostFunc(streams[s], on_chunk_done, &ids[s]));
    }
    // Stream 0 waits for every chunk before combining.
    for (int s = 1; s < kStreams; ++s)
        CK(cudaStreamWaitEvent(streams[0], done[s], 0));
    CK(cudaMemcpyAsync(d_b, d_a, n * sizeof(float), cudaMemcpyDeviceToDevice, streams[0]));
    combine<<<(n + 255) / 256, 256, 0, streams[0]>>>(d_a, d_b, d_out, n);
    CK(cudaStreamSynchronize(streams[0]));

    // Capture the same work into a graph and replay it.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
    process<<<(n + 255) / 256, 256, 0, streams[0]>>>(d_a, n, 0.5f);
    combine<<<(n + 255) / 256, 256, 0, streams[0]>>>(d_a, d_b, d_out, n);
    CK(cudaStreamEndCapture(streams[0], &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    size_t nodes = 0;
    CK(cudaGraphGetNodes(graph, nullptr, &nodes));
    for (int rep = 0; rep < 5; ++rep)
        CK(cudaGraphLaunch(exec, streams[1]));
    CK(cudaStreamSynchronize(streams[1]));

    CK(cudaMemcpy(h_data, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("graph nodes=%zu callbacks=%d mask=%x out[10]=%f\n", nodes, g_callbacks.load(), g_chunk_mask.load(),
                h_data[10]);

    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    for (int s = 0; s < kStreams; ++s) {
        CK(cudaEventDestroy(done[s]));
        CK(cudaStreamDestroy(streams[s]));
    }
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_out));
    CK(cudaFreeHost(h_data));
    return 0;
}
