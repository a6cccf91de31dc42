// nvcc-flags:
__global__ int kern() { return 0; }
