//! Default member initializers: a constructor that does not name a member
//! (and the implicit default constructor) initializes it from its default
//! member initializer, and uses what that initializer uses. Names checked
//! against g++ 12 `nm`.

use expect_test::expect;

use super::closure;

#[test]
fn constructors_use_default_member_initializers() {
    // `S()` (implicit) and `T(int)`, `T(const T&)` (user-written, not naming
    // `a`) construct `a` with `A<int>(int)`, never `A<int>()`; `T` names `c`.
    closure(
        "template<class T> struct A { A(T v) : v(v) {} A() {} T v; };\n\
         struct S { A<int> a{0}; A<long> b = A<long>(2L); int n = 3; };\n\
         struct T { T(int); T(const T&); A<int> a{0}; A<char> c; };\n\
         T::T(int x) : c('x') {}\n\
         T::T(const T& o) : c(o.c) {}\n\
         void user() { S s; }",
        expect![[r#"
            _ZN1TC1Ei
            _ZN1TC1ERKS_
            _ZN1TC1Ei
            _ZN1TC1ERKS_
            _Z4userv
            _ZN1AIcEC1Ec
            _ZN1AIiEC1Ei
            _ZN1SC1Ev
            _ZN1AIlEC1El
        "#]],
    );
}

#[test]
fn initializers_of_a_specialization_are_substituted() {
    closure(
        "template<class T> struct A { A(T v) : v(v) {} A() {} T v; };\n\
         template<class T> struct W { W() {} explicit W(int) : n(1) {} A<T> a{T()}; int n = sizeof(T); };\n\
         void user() { W<long> w; W<char> v(1); }",
        expect![[r#"
            _Z4userv
            _ZN1WIlEC1Ev
            _ZN1WIcEC1Ei
            _ZN1AIlEC1El
            _ZN1AIcEC1Ec
        "#]],
    );
}

#[test]
fn braced_member_initializer_of_an_aggregate_and_omitted_aggregate_members() {
    // `f{{a}}` initializes the aggregate `Inv<F>` member by member (its
    // `Tup<F>` from `F&&`, as `thread::_State_impl` does); `Agg g{1}` takes
    // `b` from its default member initializer.
    closure(
        "template<class T> struct Tup { template<class U> Tup(U&& u) : t(static_cast<U&&>(u)) {} T t; };\n\
         template<class T> struct Inv { Tup<T> _M_t; };\n\
         template<class T> struct State { Inv<T> f; template<class... A> State(A&&... a) : f{{static_cast<A&&>(a)...}} {} };\n\
         struct F {};\n\
         struct Agg { int a; Tup<long> b{1}; };\n\
         void user() { State<F> s(F{}); Agg g{1}; }",
        expect![[r#"
            _Z4userv
            _ZN5StateI1FEC1IJS0_EEEDpOT_
            _ZN3TupIlEC1IiEEOT_
            _ZN3TupI1FEC1IS0_EEOT_
        "#]],
    );
}
