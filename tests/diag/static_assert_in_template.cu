// nvcc-flags:
template <class T> struct Check { static_assert(sizeof(T) > 4, "too small"); };
Check<char> c;
