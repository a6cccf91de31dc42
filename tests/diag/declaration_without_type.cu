// nvcc-flags:
x = 1;
