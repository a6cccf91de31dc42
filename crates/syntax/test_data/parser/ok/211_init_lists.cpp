struct P { int x, y; };
struct Q { P p; int a[4]; };
P p1 = {1, 2};
P p2 = {1, 2,};
P p3 = {.x = 1, .y = 2};
Q q1 = {.p.x = 1, .a[2] = 3};
Q q2 = {.p = {1, 2}, .a = {1}};
int arr[10] = {[3] = 4, [5 ... 7] = 1};
P p4 = {x: 1, y: 2};
int e[] = {};
template <typename... Ts> void g(Ts... xs) { int a[] = {xs...}; int b[] = {0, (xs + 1)...}; }
P mk() { return P{3, 4}; }
