// nvcc-flags:
template <class T> constexpr T cft() { return T(1); }
template <class T> struct A { __host__ __device__ T a() { return cft<T>(); } };
template <class T> __host__ __device__ T f() { return cft<T>(); }
template <class T> struct B { __host__ __device__ static T b() { return cft<T>(); } };
void h() {
  A<int> x;
  f<int>();
  B<long> *p = 0;
  f<char>();
  x.a();
  B<long>::b();
  A<char>().a();
}
