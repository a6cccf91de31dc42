// nvcc-flags: --diag-suppress 20091
__device__ int dv;
int main() { return dv; }
