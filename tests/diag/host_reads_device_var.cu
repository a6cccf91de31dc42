// nvcc-flags:
__device__ int dv;
int main() { return dv; }
