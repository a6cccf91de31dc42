// nvcc-flags: --extended-lambda
template <class F> __device__ void dev_use(F f) { f(1); }
__device__ void dev_fn() { int x = 0; dev_use([&x] __device__ (int a) { return x + a; }); }
__global__ void kern() { int x = 0; dev_use([&] __device__ (int a) { return x + a; }); }
void host_fn() { int x = 0; auto l = [&](int a) { return x + a; }; l(1); }
static_assert(sizeof(int) == 3, "keeps the case an error");
