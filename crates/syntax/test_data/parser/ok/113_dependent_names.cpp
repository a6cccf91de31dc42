template<class T> struct A {
    typedef typename T::value_type value_type;
    typename T::template rebind<int>::other o;
    void f() { T::g(); typename T::type x; T::template h<int>(); }
    static const int n = T::value;
};
template<class T> struct B : A<T> {
    using typename A<T>::value_type;
    value_type v;
};
struct Base { typedef int type; template<class U> struct rb {}; };
struct D : Base { type t; rb<int> r; };
template<class T> void out(typename A<T>::value_type);
template<class T> typename A<T>::value_type A2();
