// nvcc-flags: -Xcudafe --error_limit=2
int a = x1;
int b = x2;
int c = x3;
