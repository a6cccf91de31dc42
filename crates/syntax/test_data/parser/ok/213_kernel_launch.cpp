__attribute__((global)) void k(int* p, int n);
template <typename T> __attribute__((global)) void kt(T* p);
struct cudaStream; typedef cudaStream* stream_t;
struct S { template <typename T> static void f(T*); };
void host(int* p, int n, stream_t s) {
    k<<<1, 256>>>(p, n);
    k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
    kt<int><<<1, 1>>>(p);
    kt<<<dim(n), 32>>>(p);
}
