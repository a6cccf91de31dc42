// nvcc-flags: -Wno-deprecated-declarations
[[deprecated]] void old_fn();
void host_fn() { old_fn(); }
