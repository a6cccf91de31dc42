struct S { int m; int f(int); S* next; int arr[4]; };
S s, *ps;
int i, *pi, **ppi;
void f() {
    i = -i + +i - !i + ~i;
    i = *pi + **ppi;
    pi = &i;
    ++i; --i; i++; i--;
    s.m = ps->m;
    ps->next->next->f(1)++;
    s.arr[2] = s.arr[i + 1];
    i = s.f(1) + ps->f(2);
    ps->~S();
    s.S::m = 0;
    i = - - - i;
}
