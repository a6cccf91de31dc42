// nvcc-flags:
virtual void host_fn();
