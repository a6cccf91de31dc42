// nvcc-flags:
[[deprecated]] void old_fn();
void host_fn() { old_fn(); }
