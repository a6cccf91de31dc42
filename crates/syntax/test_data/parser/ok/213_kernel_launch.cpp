__attribute__((global)) void k(int* p, int n);
template <typename T> __attribute__((global)) void kt(T* p);
struct cudaStream; typedef cudaStream* stream_t;
struct S { template <typename T> __attribute__((global)) static void kf(T*); };
struct dim3 { dim3(int); };
void host(int* p, int n, stream_t s) {
    k<<<1, 256>>>(p, n);
    k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
    kt<int><<<1, 1>>>(p);
    kt<<<dim3(n), 32>>>(p);
    S::kf<int><<<1, 1, 0>>>(p);
    S::template kf<int><<<dim3(1), dim3(2)>>>(p);
    k<<<1, 1>>>(p, n << 2);
}
