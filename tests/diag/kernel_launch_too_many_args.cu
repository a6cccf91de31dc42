// nvcc-flags:
__global__ void kern() {}
void host_fn() { kern<<<1, 1, 0, 0, 0>>>(); }
