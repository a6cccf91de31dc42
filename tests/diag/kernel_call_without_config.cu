// nvcc-flags:
__global__ void kern() {}
void host_fn() { kern(); }
