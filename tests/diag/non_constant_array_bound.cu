// nvcc-flags:
int n = 3;
int arr[n];
