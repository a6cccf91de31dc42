namespace std { template<class T> struct vector { typedef T value_type; }; struct string {}; }
using namespace std;
vector<int> v;
using std::string;
string s;
using Int = int;
using VT = vector<int>::value_type;
template<class T> using Vec = vector<T>;
Vec<Int> w;
using Attr [[deprecated]] = int;
struct B { typedef int type; void f(); };
struct D : B { using B::f; using typename B::type; type t; };
