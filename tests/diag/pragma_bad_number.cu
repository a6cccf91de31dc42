// nvcc-flags:
#pragma nv_diag_suppress 99999
int host_fn() {}
