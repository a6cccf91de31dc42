// nvcc-flags:
static_assert(sizeof(int) == 3, "int is not three bytes");
