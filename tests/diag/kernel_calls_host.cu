// nvcc-flags:
void host_fn() {}
__global__ void kern() { host_fn(); }
