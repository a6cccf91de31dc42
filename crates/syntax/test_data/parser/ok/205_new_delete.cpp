struct T { T(); T(int, int); };
void* buf;
int n;
void f() {
    T* a = new T;
    T* b = new T(1, 2);
    T* c = new T[n];
    T* d = new T[3]{};
    int* e = new int(5);
    T* g = new (buf) T(1, 2);
    T* h = ::new (buf) T;
    T* k = new (T);
    int** m = new int*[n];
    delete a;
    delete[] c;
    ::delete b;
    ::delete[] d;
}
