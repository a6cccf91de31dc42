// nvcc-flags: --diag-error 20091
__device__ int dv;
int main() { return dv; }
