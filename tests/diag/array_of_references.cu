// nvcc-flags:
int a, b;
int &arr[2] = {a, b};
