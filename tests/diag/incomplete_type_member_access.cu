// nvcc-flags:
struct S;
int host_fn(S *s) { return s->x; }
