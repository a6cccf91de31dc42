// After `.`/`->`, a name that ordinary lookup finds as a function template
// does not start a template-id: `l.first < r.first` compares.
template <class T> int first(T) { return 0; }
template <class A, class B> struct pair { A first; B second; };
template <class T1, class T2>
bool lt(const pair<T1, T2>& l, const pair<T1, T2>* r) { return l.first < r->first; }
template <class T> int second(T) { return 1; }
template <class T1, class T2>
bool gt(const pair<T1, T2>& l, const pair<T1, T2>& r) { return l.second > r.second; }
// Member templates called with arguments, and `this->` in a member body.
struct S {
  template <class T> T get() { return T(); }
  int f() { return this->get<int>() + get<int>(); }
};
int g(S s, S* p) { return s.get<int>() + p->template get<int>(); }
