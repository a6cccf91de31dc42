// nvcc-flags: --diag-error 940
int host_fn() {}
