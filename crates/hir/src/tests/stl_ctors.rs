//! Constructor and argument rules libstdc++'s containers lean on (each
//! reduced; the names checked against g++ 12 `nm`): non-deduced
//! value-dependent parameters, reference binding of a converted temporary,
//! `constexpr` objects being `const`, the elements of an initializer list,
//! and member variable templates over the class's pack.

use expect_test::expect;

use super::calls;

const ENABLE_IF: &str = "template<bool B, class T = void> struct enable_if {};\n\
    template<class T> struct enable_if<true, T> { typedef T type; };\n\
    template<bool B, class T = void> using __enable_if_t = typename enable_if<B, T>::type;\n";

#[test]
fn value_dependent_enable_if_parameter_is_not_deduced() {
    // `unique_ptr(pointer, __enable_if_t<!is_lvalue_reference<_Del>::value,
    // _Del&&>)`: `_Del` takes its default, it is not deduced from the argument.
    calls(
        &format!(
            "{ENABLE_IF}\
             template<class T> struct is_lref {{ static constexpr bool value = false; }};\n\
             template<class T> struct is_lref<T&> {{ static constexpr bool value = true; }};\n\
             struct Fn {{ template<class F> Fn(F f) {{}} }};\n\
             template<class P, class D> struct UP {{\n\
               template<class Del = D, class = void> UP(P p, __enable_if_t<!is_lref<Del>::value, Del&&> d) {{}}\n\
             }};\n\
             void user() {{ auto l = [](float*){{}}; UP<float, Fn> u(0.0f, l); }}"
        ),
        "user",
        expect![[r#"
            _ZZ4uservENKUlPfE_clES_
            _ZN2UPIf2FnEC1IS0_vEEfN9enable_ifIXntsr7is_lrefIT_E5valueEOS5_E4typeE
            _ZN2FnC1IZ4uservEUlPfE_EET_
        "#]],
    );
}

#[test]
fn converted_temporary_binds_rvalue_reference_first() {
    calls(
        "struct Fn { template<class F> Fn(F f) {} };\n\
         struct Q { Q(float*, const Fn&) {} Q(float*, Fn&&, int = 0) {} };\n\
         void user() { Q q(nullptr, [](float*){}); }",
        "user",
        expect![[r#"
            _ZZ4uservENKUlPfE_clES_
            _ZN1QC1EPfO2Fni
            _ZN2FnC1IZ4uservEUlPfE_EET_
        "#]],
    );
}

#[test]
fn constexpr_object_is_const() {
    calls(
        "struct T {};\n\
         constexpr T t{};\n\
         template<class A> void f(A&&) {}\n\
         void user() { constexpr T u{}; f(t); f(u); }",
        "user",
        expect![[r#"
            _ZL1t
            _Z1fIRK1TEvOT_
        "#]],
    );
}

#[test]
fn initializer_list_elements_are_constructed() {
    calls(
        "namespace std {\n\
           typedef decltype(sizeof(0)) size_t;\n\
           template<class E> class initializer_list {\n\
             const E* _M_array; size_t _M_len;\n\
             constexpr initializer_list(const E* a, size_t l) : _M_array(a), _M_len(l) {}\n\
           public:\n\
             constexpr initializer_list() noexcept : _M_array(0), _M_len(0) {}\n\
           };\n\
         }\n\
         struct S { template<class A, class B> S(A&& a, B&& b) {} };\n\
         struct M { M(std::initializer_list<S>) {} };\n\
         void user() { M m{{1, 2.0}, {\"ab\", 3}}; }",
        "user",
        expect![[r#"
            _ZN1MC1ESt16initializer_listI1SE
            _ZN1SC1IidEEOT_OT0_
            _ZN1SC1IRA3_KciEEOT_OT0_
        "#]],
    );
}

#[test]
fn member_variable_template_sees_the_class_pack() {
    // libstdc++'s `variant<_Types...>::__exactly_once<_Tp>` gates the
    // converting constructor `variant(_Tp&&)`.
    calls(
        &format!(
            "{ENABLE_IF}\
             template<class T, class... Ts> constexpr unsigned long find() {{\n\
               constexpr unsigned long sz = sizeof...(Ts);\n\
               constexpr bool found[sz] = {{ __is_same(T, Ts) ... }};\n\
               unsigned long n = sz;\n\
               for (unsigned long i = 0; i < sz; ++i) {{ if (found[i]) {{ if (n < sz) return sz; n = i; }} }}\n\
               return n;\n\
             }}\n\
             template<class T, class... Ts> inline constexpr bool once = find<T, Ts...>() < sizeof...(Ts);\n\
             template<bool B> struct X {{ static void f() {{}} }};\n\
             template<class... Ts> struct V {{\n\
               template<class T> static constexpr bool once_m = once<T, Ts...>;\n\
               template<class T, class = __enable_if_t<once_m<T>>> V(T&& t) {{}}\n\
               V(const V&) {{}}\n\
               static void g() {{ X<once_m<int>>::f(); }}\n\
             }};\n\
             void user() {{ V<int, double> v(5); V<int, double>::g(); }}"
        ),
        "user",
        expect![[r#"
            _ZN1VIJidEEC1IivEEOT_
            _ZN1VIJidEE1gEv
        "#]],
    );
}

#[test]
fn constructor_arguments_are_converted_by_converting_constructors() {
    // The lambda becomes a `Fn` temporary: `Fn`'s constructor template is
    // instantiated (g++ emits `_ZN2FnC1IZ4uservEUlPfE_EET_`).
    calls(
        "struct Fn { template<class F> Fn(F f) {} };\n\
         struct Q { Q(float*, const Fn&) {} Q(float*, Fn&&, int = 0) {} };\n\
         void user() { Q q(nullptr, [](float*){}); }",
        "user",
        expect![[r#"
            _ZZ4uservENKUlPfE_clES_
            _ZN1QC1EPfO2Fni
            _ZN2FnC1IZ4uservEUlPfE_EET_
        "#]],
    );
}

#[test]
fn class_assignability_by_overload_resolution() {
    calls(
        "template<bool B> struct X { static void f() {} };\n\
         struct F { F& operator=(F&&) { return *this; } template<class G> F& operator=(G&&) { return *this; } };\n\
         struct N { N& operator=(const N&) = delete; };\n\
         void user() { X<__is_assignable(F&, F&&)>::f(); X<__is_assignable(F&, int)>::f(); X<__is_assignable(N&, const N&)>::f(); }",
        "user",
        expect![[r#"
            _ZN1XILb1EE1fEv
            _ZN1XILb0EE1fEv
        "#]],
    );
}

#[test]
fn constructors_inherited_over_two_levels() {
    // g++: `_ZN1DIiECI12StIJiEEILm0EJiEEE3tagIXT_EEDpOT0_`, which calls
    // `D0<int>`'s inheriting constructor, which calls `St<int>`'s.
    calls(
        "template<unsigned long N> struct tag {};\n\
         template<class... Ts> struct St { template<unsigned long N, class... A> St(tag<N>, A&&... a) {} St() {} };\n\
         template<class T> struct D0 : St<T> { using St<T>::St; };\n\
         template<class T> struct D : D0<T> { using D0<T>::D0; };\n\
         void user() { D<int> d(tag<0>{}, 1); }",
        "user",
        expect![[r#"
            _ZN1DIiECI12StIJiEEILm0EJiEEE3tagIXT_EEDpOT0_
        "#]],
    );
}

#[test]
fn gnu_decltype_spelling() {
    // libstdc++'s `__adjust_heap`: `__decltype(__iter_comp_val(…)) __cmp(…);`.
    calls(
        "struct C {};\n\
         template<class T> struct W { explicit W(T c) {} };\n\
         template<class T> W<T> wrap(T c) { return W<T>(c); }\n\
         void user() { C c; __decltype(wrap(C())) w(c); }",
        "user",
        expect![[r#"
            _ZN1WI1CEC1ES0_
        "#]],
    );
}

#[test]
fn decltype_of_locals_in_a_variable_type() {
    // `__adjust_heap`'s `__decltype(__iter_comp_val(std::move(__comp)))
    // __cmp(…);`: the operand names a parameter, so only the body types it.
    super::closure(
        "template<class T> struct W { W(T c) {} };\n\
         template<class T> W<T> wrap(T c) { return W<T>(c); }\n\
         template<class T> void use(W<T>& w) {}\n\
         template<class T> void f(T c) { __decltype(wrap(c)) w(c); decltype(wrap(c)) v(c); use(w); use(v); }\n\
         void user() { f(1); }",
        expect![[r#"
            _Z4userv
            _Z1fIiEvT_
            _ZN1WIiEC1Ei
            _Z3useIiEvR1WIT_E
        "#]],
    );
}

#[test]
fn pack_expansion_in_a_local_initializer() {
    // `_Auto_node __z(*this, std::forward<_Args>(__args)...)` in `_Rb_tree`.
    super::closure(
        "template<class T> T&& fwd(T& t) { return static_cast<T&&>(t); }\n\
         struct Node { template<class... A> Node(A&&... a) {} };\n\
         template<class... A> void emplace(A&&... a) { Node z(fwd<A>(a)...); }\n\
         void user() { emplace(1, 2.0); }",
        expect![[r#"
            _Z4userv
            _Z7emplaceIJidEEvDpOT_
            _Z3fwdIiEOT_RS0_
            _Z3fwdIdEOT_RS0_
            _ZN4NodeC1IJidEEEDpOT_
        "#]],
    );
}

#[test]
fn inherited_constructor_chain_is_required() {
    super::closure(
        "template<unsigned long N> struct tag {};\n\
         template<class... Ts> struct St { template<unsigned long N, class... A> St(tag<N>, A&&... a) {} St() {} };\n\
         template<class T> struct D0 : St<T> { using St<T>::St; };\n\
         template<class T> struct D : D0<T> { using D0<T>::D0; };\n\
         void user() { D<int> d(tag<0>{}, 1); }",
        expect![[r#"
            _Z4userv
            _ZN1DIiECI12StIJiEEILm0EJiEEE3tagIXT_EEDpOT0_
            _ZN2D0IiECI12StIJiEEILm0EJiEEE3tagIXT_EEDpOT0_
            _ZN2StIJiEEC1ILm0EJiEEE3tagIXT_EEDpOT0_
        "#]],
    );
}

#[test]
fn returned_local_is_moved_first() {
    // `std::optional<int> f(int v) { return v; }` constructs through
    // `optional(_Up&&)` with `_Up = int`.
    calls(
        "template<class T> struct opt { template<class U> opt(U&& u) {} };\n\
         opt<int> parse(int v) { int w = v; if (v) return v; return w; }",
        "parse",
        expect![[r#"
            _ZN3optIiEC1IiEEOT_
        "#]],
    );
}
