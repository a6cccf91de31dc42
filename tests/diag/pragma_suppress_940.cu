// nvcc-flags:
#pragma nv_diag_suppress 940
int host_fn() {}
int main() { return nope; }
