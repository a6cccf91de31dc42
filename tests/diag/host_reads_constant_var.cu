// nvcc-flags:
__constant__ int cv;
int host_fn() { return cv; }
