// nvcc-flags: --extended-lambda -std=c++20
template <class F> void use(F) {}
void host_fn() { use([] __device__ (int x) consteval { return x; }); }
