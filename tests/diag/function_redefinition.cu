// nvcc-flags:
int f() { return 1; }
int f() { return 2; }
