x = 1;
y;
z, w;
arr[3];
namespace N { q = 2; }
struct S { m = 1; S(); ~S(); operator int(); };
void f() { static k = 1; }
const c = 1;
S::S() {}
