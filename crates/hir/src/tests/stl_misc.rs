//! Small rules libstdc++'s `shared_ptr`, `future` and `once_flag` lean on
//! (each reduced; the names checked against g++ 12 `nm`).

use expect_test::expect;

use super::closure;

#[test]
fn explicit_specialization_of_a_member_is_its_definition() {
    // `template<> void S<C>::rel()` defines `rel` for `S<C>` only: an
    // instance of that member walks this body, not the primary's
    // out-of-line definition (`_Sp_counted_base<_S_atomic>::_M_release`).
    closure(
        "enum P { A, B, C };\n\
         template<P p> struct S {\n\
           void rel() noexcept;\n\
           void last() noexcept { }\n\
           void cold() noexcept { last(); }\n\
           void other() noexcept { }\n\
         };\n\
         template<P p> inline void S<p>::rel() noexcept { other(); }\n\
         template<> inline void S<A>::rel() noexcept { }\n\
         template<> inline void S<C>::rel() noexcept {\n\
           if constexpr (sizeof(long long) == 8) { cold(); } else { last(); }\n\
         }\n\
         void user(S<C>& s) { s.rel(); }",
        expect![[r#"
            _Z4userR1SIL1P2EE
            _ZN1SIL1P2EE3relEv
            _ZN1SIL1P2EE4coldEv
            _ZN1SIL1P2EE4lastEv
        "#]],
    );
}

#[test]
fn user_provided_copy_constructor_default_initializes_bases() {
    // A copy constructor with no mem-initializer for a base or member
    // default-initializes it (`_Copy_ctor_base(const _Copy_ctor_base&)`
    // default-constructs `_Variant_storage`); a defaulted one copies.
    closure(
        "template<class T> struct B { B(); B(const B&); int x; };\n\
         template<class T> struct M { M(); M(const M&); };\n\
         template<class T> struct D : B<T> { M<T> m; D(); D(const D&) { } };\n\
         template<class T> struct E : B<T> { M<T> m; E(); E(const E&) = default; };\n\
         void user(D<int>& d, E<char>& e) { D<int> c(d); E<char> f(e); }",
        expect![[r#"
            _Z4userR1DIiER1EIcE
            _ZN1DIiEC1ERKS0_
            _ZN1EIcEC1ERKS0_
            _ZN1BIiEC1Ev
            _ZN1MIiEC1Ev
            _ZN1BIcEC1ERKS0_
            _ZN1MIcEC1ERKS0_
        "#]],
    );
}

#[test]
fn implicit_default_constructor_decides_is_constructible() {
    // `_Hashtable_enable_default_ctor<_Equal, _Hash, _Alloc>` is
    // `_Enable_default_constructor<__and_<is_default_constructible<…>…>{}, …>`:
    // a class that declares no constructor but is not trivial (a member
    // function, a non-trivial member) is default constructible when its
    // bases and members are; the base named through the member alias is
    // then constructed by the mem-initializer.
    super::closure(
        "template<class T, T v> struct integral_constant { static constexpr T value = v; constexpr operator T() const noexcept { return value; } };\n\
         template<class T> struct is_default_constructible : integral_constant<bool, __is_constructible(T)> {};\n\
         template<class... B> struct __and_ : integral_constant<bool, (B::value && ...)> {};\n\
         struct S { S(); };\n\
         template<class T> struct equal_to { bool operator()(const T&, const T&) const; };\n\
         template<class T> struct hash { S s; unsigned long operator()(const T&) const; };\n\
         struct tag { explicit constexpr tag() = default; };\n\
         template<bool _Switch, typename _Tag = void> struct _Enable_default_constructor {\n\
           constexpr _Enable_default_constructor() noexcept = default;\n\
           constexpr explicit _Enable_default_constructor(tag) { }\n\
         };\n\
         template<class E, class H> using ED = _Enable_default_constructor<__and_<is_default_constructible<E>, is_default_constructible<H>>{}, int>;\n\
         template<class E, class H> struct Table : private ED<E, H> {\n\
           using __enable_default_ctor = ED<E, H>;\n\
           Table(int) : __enable_default_ctor(tag{}) {}\n\
         };\n\
         void user() { Table<equal_to<int>, hash<int>> h(1); }",
        expect![[r#"
            _ZN1SC1Ev
            _ZN3tagC1Ev
            _Z4userv
            _ZN5TableI8equal_toIiE4hashIiEEC1Ei
            _ZN27_Enable_default_constructorILb1EiEC1E3tag
        "#]],
    );
}

#[test]
fn pointer_conversions_decide_is_constructible() {
    // `return _Res(__x, __y);` in `_Rb_tree::_M_get_insert_unique_pos`:
    // `pair<_Base_ptr, _Base_ptr>(_Link_type&, _Base_ptr&)` takes the
    // forwarding constructor, whose constraint asks whether a base class
    // pointer is constructible from a derived class pointer.
    super::calls(
        "template<class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template<bool B, class T = void> struct enable_if {};\n\
         template<class T> struct enable_if<true, T> { typedef T type; };\n\
         template<class T, class... A> struct is_constructible : integral_constant<bool, __is_constructible(T, A...)> {};\n\
         template<class T> T&& forward(T& t) noexcept { return static_cast<T&&>(t); }\n\
         struct Base {}; struct Node : Base {}; struct Other {};\n\
         template<class T1, class T2> struct pair {\n\
           T1 first; T2 second;\n\
           pair(const T1& a, const T2& b) : first(a), second(b) {}\n\
           template<class U1, class U2, typename enable_if<is_constructible<T1, U1&&>::value && is_constructible<T2, U2&&>::value, bool>::type = true>\n\
           pair(U1&& x, U2&& y) : first(forward<U1>(x)), second(forward<U2>(y)) {}\n\
         };\n\
         void user(Node* n, Base* b, Other* o, const Node* c) {\n\
           pair<Base*, Base*> p(n, b);\n\
           pair<void*, const Base*> q(o, c);\n\
           pair<Base*, Base*> r(b, b);\n\
         }",
        "user",
        expect![[r#"
            _ZN4pairIP4BaseS1_EC1IRP4NodeRS1_Lb1EEEOT_OT0_
            _ZN4pairIPvPK4BaseEC1IRP5OtherRPK4NodeLb1EEEOT_OT0_
            _ZN4pairIP4BaseS1_EC1IRS1_S4_Lb1EEEOT_OT0_
        "#]],
    );
}

#[test]
fn attributed_block_declaration_declares_a_local() {
    // `_Sp_make_shared_tag::_S_ti()`: `alignas(type_info) static constexpr
    // char __tag[…] = { };` is a declaration statement whose local static
    // the returned reference odr-uses.
    closure(
        "struct TI { virtual ~TI(); void* p; };\n\
         struct T { static const TI& ti() noexcept { alignas(TI) static constexpr char tag[sizeof(TI)] = { }; return reinterpret_cast<const TI&>(tag); } };\n\
         void user() { T::ti(); }",
        expect![[r#"
            _ZN2TID1Ev
            _ZN1T2tiEv
            _Z4userv
            _ZZN1T2tiEvE3tag
        "#]],
    );
}

#[test]
fn closure_assigned_to_a_function_pointer_converts() {
    // `once_flag::_Prepare_execution`: `__once_call = [] { … };` names the
    // closure's conversion function and its invoker `_FUN`.
    closure(
        "extern void (*call)();\n\
         struct Prep { template<class C> Prep(C&) { call = [] { }; } };\n\
         void user() { int x = 0; auto l = [&] { ++x; }; Prep p(l); }",
        expect![[r#"
            call
            _Z4userv
            _ZZ4uservENKUlvE_clEv
            _ZN4PrepC1IZ4uservEUlvE_EERT_
            _ZZN4PrepC4IZ4uservEUlvE_EERT_ENKUlvE_clEv
            _ZZN4PrepC4IZ4uservEUlvE_EERT_ENKUlvE_cvPFvvEEv
            _ZZN4PrepC4IZ4uservEUlvE_EERT_ENUlvE_4_FUNEv
        "#]],
    );
}

#[test]
fn class_condition_converts_to_bool() {
    // `while (in >> word)`: the condition is contextually converted by the
    // base's explicit `operator bool` (`basic_ios::operator bool`).
    closure(
        "template<class C> struct ios { bool f; explicit operator bool() const { return f; } };\n\
         template<class C> struct istream : ios<C> { istream& get(); };\n\
         void user(istream<char>& in) { while (in.get()) { } }",
        expect![[r#"
            _Z4userR7istreamIcE
            _ZN7istreamIcE3getEv
            _ZNK3iosIcEcvbEv
        "#]],
    );
}

#[test]
fn implicit_copy_beats_converting_constructors() {
    // `make_exception_ptr(future_error)`: `::new (p) E(e)` copies `e` with
    // the implicit copy constructor (an exact match), not through
    // `future_error(error_code)` and a converting constructor of `error_code`.
    closure(
        "struct code { template<class E> code(E) {} };\n\
         struct logic { logic(const logic&); logic(int); virtual ~logic(); };\n\
         struct ferr : logic { explicit ferr(code c); ferr(int e); };\n\
         void* operator new(unsigned long, void* p) noexcept;\n\
         template<class E> void make(E e, void* p) { ::new (p) E(e); }\n\
         void user(ferr& f, void* p) { make(f, p); }",
        expect![[r#"
            _ZN5logicC1ERKS_
            _ZN5logicC1Ei
            _ZN5logicD1Ev
            _ZN4ferrC1E4code
            _ZN4ferrC1Ei
            _ZnwmPv
            _Z4userR4ferrPv
            _Z4makeI4ferrEvT_Pv
            _ZN4ferrC1ERKS_
            _ZN4ferrD1Ev
        "#]],
    );
}
