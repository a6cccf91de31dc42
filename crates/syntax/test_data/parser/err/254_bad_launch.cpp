__attribute__((global)) void k(int);
void g() {
    k<<<1, 2>>(3);
    k<<<1>>>;
}
void h() { k<<<1, 1>>>(0); }
