int a;
void g() {
    auto l = [a, 3] { return a; };
    auto m = [] (int x { return x; };
    int arr[] = {1, 2 3};
    int brr[] = {.x = };
}
void h() { a = 3; }
