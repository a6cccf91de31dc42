// nvcc-flags:
struct S {};
void host_fn() { S s; if (s) {} }
