// nvcc-flags:
const char *s = "abc;
