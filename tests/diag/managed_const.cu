// nvcc-flags:
__managed__ const int m = 1;
