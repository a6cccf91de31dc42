// nvcc-flags:
template <class T> struct Box { T v; };
Box<int, int> b;
