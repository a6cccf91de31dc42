// nvcc-flags:
__launch_bounds__(128) void host_fn() {}
