// After `.`, a name that ordinary lookup finds as a class template does
// start a template-id ([basic.lookup.classref]): EDG reports a missing `>`.
template <class T> struct first {};
template <class A, class B> struct pair { A first; B second; };
template <class T1, class T2>
bool lt(const pair<T1, T2>& l, const pair<T1, T2>& r) { return l.first < r.first; }
