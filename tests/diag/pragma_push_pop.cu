// nvcc-flags:
#pragma nv_diagnostic push
#pragma nv_diag_suppress 940
int f1() {}
#pragma nv_diagnostic pop
int f2() {}
