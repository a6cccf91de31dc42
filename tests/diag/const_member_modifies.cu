// nvcc-flags:
struct S { int x; void set() const { x = 1; } };
