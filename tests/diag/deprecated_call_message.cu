// nvcc-flags:
[[deprecated("use new_fn")]] void old_fn();
void host_fn() { old_fn(); }
