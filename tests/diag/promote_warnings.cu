// nvcc-flags: -Werror all-warnings
int host_fn() {}
