template <class T> struct A { using typename A<T>::e; };
A<int>::e x;
template <class T> struct B { using typename B<B<T>>::e; };
B<int>::e y;
void f() { A<char>::e a; B<char>::e b; }
