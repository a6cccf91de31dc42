namespace N { struct C { struct In { void m(); }; typedef int I; C(); ~C(); I get(I) const; template<class T> T tm(T); static int s; }; }
N::C::C() {}
N::C::~C() {}
N::C::I N::C::get(I i) const { I j = i; return j; }
void N::C::In::m() {}
template<class T> T N::C::tm(T t) { return t; }
int N::C::s = 3;
template<class T> struct X { X(); void f(); };
template<class T> X<T>::X() {}
template<class T> void X<T>::f() {}
