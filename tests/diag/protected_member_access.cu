// nvcc-flags:
class C { protected: void m(); };
void host_fn(C &c) { c.m(); }
