// nvcc-flags:
int host_var;
__global__ void kern(int *out) { *out = host_var; }
