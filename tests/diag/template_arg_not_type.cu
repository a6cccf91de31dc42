// nvcc-flags:
template <class T> struct Box { T v; };
Box<3> b;
