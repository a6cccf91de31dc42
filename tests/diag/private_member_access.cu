// nvcc-flags:
class C { int secret; };
int host_fn(C &c) { return c.secret; }
