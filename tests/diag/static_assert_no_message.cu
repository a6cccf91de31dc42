// nvcc-flags:
static_assert(1 + 1 == 3);
