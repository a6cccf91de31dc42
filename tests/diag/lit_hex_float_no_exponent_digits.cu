// nvcc-flags:
float k = 0x1.0p;
