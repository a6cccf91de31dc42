// nvcc-flags:
#include <typeinfo>
__device__ bool dev_fn(int x) { return typeid(x) == typeid(int); }
