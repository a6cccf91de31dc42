// nvcc-flags:
Nope host_fn();
