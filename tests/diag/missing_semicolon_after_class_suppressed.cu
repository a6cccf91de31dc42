// nvcc-flags: --diag-suppress 65
struct S {}
int x;
