// nvcc-flags:
__device__ int dv;
int main() { dv = 1; return 0; }
