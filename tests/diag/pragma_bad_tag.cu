// nvcc-flags:
#pragma nv_diag_suppress no_such_tag
int x;
