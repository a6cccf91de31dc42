int x
int y;
struct S { int a int b; };
void f(int, ) ;
template<class T struct Z {};
enum E { A, , B };
namespace { int z; 
