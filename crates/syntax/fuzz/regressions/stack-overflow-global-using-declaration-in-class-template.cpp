template <class T> struct B { using typename ::e; };
B<int>::e y;
