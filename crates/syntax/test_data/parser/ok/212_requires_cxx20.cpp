template <typename T, typename U> concept same_as = __is_same(T, U);
template <typename T> concept C = requires (T a, T b) {
    a + b;
    typename T::value_type;
    { a.f() } noexcept -> same_as<int>;
    { a } -> same_as<T>;
    requires (sizeof(T) > 1);
    requires sizeof(T) < 64 && true;
};
template <typename T> concept D = requires { typename T::type; } && C<T>;
template <typename T> requires C<T> void f(T);
template <typename T> void g(T) requires (sizeof(T) > 4) {}
auto l = [] <typename T> requires C<T> (T x) { return x; };
bool b = requires { 1 + 1; };
