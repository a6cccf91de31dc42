// nvcc-flags:
struct A {};
void take(int);
void host_fn() { take(A()); }
