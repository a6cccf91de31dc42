int f(int x) {
    int y = ({ int t = x * 2; t + 1; });
    int z = x ?: y;
    __extension__ long long w = __extension__ 1LL;
    _Complex double c;
    double re = __real__ c, im = __imag__ c;
    static void* labels[] = { &&lab1, &&lab2 };
lab1:
lab2:
    return y + z;
}
const char* fn() { return __func__; }
const char* fn2() { return __PRETTY_FUNCTION__; }
const char* fn3() { return __FUNCTION__; }
