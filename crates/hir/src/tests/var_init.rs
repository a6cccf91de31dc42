//! The initialization of variables with static storage duration: what a
//! namespace-scope variable, a static data member or a variable template
//! specialization requires when it is initialized at run time, and the
//! destructor registered at exit; constant initialization calls nothing.
//! Names checked against g++ 12 `nm` (`g++ -std=c++17 -c`).

use expect_test::expect;

use super::closure;

#[test]
fn dynamic_initializers_require_their_calls() {
    // g++: `f<int>` and `f<double>` (weak), `make<long>`.
    closure(
        "template<class T> int f(T) { return sizeof(T); }\n\
         int use = f(1) + f(1.0);\n\
         template<class T> T make() { return T(); }\n\
         auto h = make<long>();",
        expect![[r#"
            use
            h
            _Z1fIiEiT_
            _Z1fIdEiT_
            _Z4makeIlET_v
        "#]],
    );
}

#[test]
fn constant_initializers_call_nothing() {
    // g++: `g<long>` (the initializer reads `use`, not a constant),
    // `Bar<int>(int)` (not constexpr) and `~Foo<int>()` (registered at
    // exit); never `g<int>`, `g<char>`, `Foo<int>(int)` or `Baz`'s
    // constexpr constructors.
    closure(
        "template<class T> constexpr int g(T) { return sizeof(T); }\n\
         int use;\n\
         int cuse = g(1);\n\
         int cuse2 = g(1L) + use;\n\
         template<class T> struct Foo { constexpr Foo(T a) : a(a) {} T a; ~Foo() {} };\n\
         Foo<int> gf(3);\n\
         template<class T> struct Bar { Bar(T a) : a(a) {} T a; };\n\
         Bar<int> gb(3);\n\
         template<class T> struct Baz { constexpr Baz() {} };\n\
         constexpr Baz<int> bz;\n\
         Baz<long> bz2;\n\
         struct S { static int y; };\n\
         int S::y = g<char>('a');",
        expect![[r#"
            use
            cuse
            cuse2
            gf
            gb
            _ZL2bz
            bz2
            _ZN1S1yE
            _ZN1S1yE
            _Z1gIlEiT_
            _ZN3FooIiED1Ev
            _ZN3BarIiEC1Ei
        "#]],
    );
}

#[test]
fn static_members_inline_and_internal_variables() {
    // g++: every `f<…>` below; an inline variable is emitted (with its
    // initialization) even when unused.
    closure(
        "template<class T> int f(T) { return sizeof(T); }\n\
         struct Bar { Bar(int a) : a(a) {} int a; };\n\
         struct S { static int x; inline static int z = f<long long>(1); };\n\
         int S::x = f<char>('a');\n\
         inline int iv = f<short>(1);\n\
         thread_local Bar tl(f<unsigned>(1));\n\
         static Bar sb(f<unsigned long>(1));\n\
         namespace { Bar ab(f<unsigned char>(1)); }\n\
         extern Bar eb;",
        expect![[r#"
            _ZN3BarC1Ei
            _ZN1S1xE
            _ZN1S1zE
            _ZN1S1xE
            iv
            tl
            _ZL2sb
            _ZN12_GLOBAL__N_12abE
            eb
            _Z1fIxEiT_
            _Z1fIcEiT_
            _Z1fIsEiT_
            _Z1fIjEiT_
            _Z1fImEiT_
            _Z1fIhEiT_
        "#]],
    );
}

#[test]
fn variable_template_instances_are_initialized() {
    // g++: `v<int>` and `make<int>`; `v<char>` is never used.
    closure(
        "template<class T> T make() { return T(); }\n\
         template<class T> T v = make<T>();\n\
         int usev() { return v<int>; }",
        expect![[r#"
            _Z4usevv
            _Z1vIiE
            _Z4makeIiET_v
        "#]],
    );
}

#[test]
fn class_objects_are_constructed_and_destroyed() {
    // g++: `Vec<int>(int, int)`, its member `Grow`, `~Vec<int>()`, and the
    // temporary's `Tmp` constructor and destructor.
    closure(
        "template<class T> struct Vec { Vec(int a, int b) { grow(a + b); } ~Vec() {} void grow(int) {} };\n\
         struct Tmp { Tmp(); ~Tmp(); int n() const; };\n\
         Vec<int> table(1, Tmp().n());",
        expect![[r#"
            _ZN3TmpC1Ev
            _ZN3TmpD1Ev
            _ZNK3Tmp1nEv
            table
            _ZN3VecIiEC1Eii
            _ZN3VecIiED1Ev
            _ZN3VecIiE4growEi
        "#]],
    );
}

#[test]
fn device_variables_are_not_initialized_on_the_host() {
    // A device variable's initializer is device code (a constant): the
    // host object requires nothing for it, not even the lambda it calls;
    // the host variable's lambda, which reads a variable (not a constant),
    // is required.
    closure(
        "__attribute__((device)) int dv = [] { return 1; }();\n\
         int use;\n\
         int hv = [] { return use; }();",
        expect![[r#"
            _ZL2dv
            use
            hv
            _ZNK2hvMUlvE_clEv
        "#]],
    );
}

#[test]
fn closures_are_named_in_the_variable() {
    // g++ 12: `_ZNK2a1MUlvE_clEv`, `_ZNK2a1MUliE0_clEi` (numbered per
    // variable), `_ZNKL2a3MUlvE_clEv`, `_ZNK2a4MUlvE_clEv`,
    // `_ZNK12_GLOBAL__N_12a5MUlvE_clEv`, `_ZNK1N1WIlE1mMUlvE_clEv`,
    // `_ZNK1SUlvE_clEv` (a class's static member: the class), and
    // `_ZNK2vtIiEUliE_clEi` (a variable template specialization).
    closure(
        "int use;\n\
         int a1 = [] { return use; }() + [](int x) { return x + use; }(1);\n\
         static int a3 = [] { return use; }();\n\
         inline int a4 = [] { return use; }();\n\
         namespace { int a5 = [] { return use; }(); }\n\
         namespace N { template<class T> struct W { static int m; }; }\n\
         template<class T> int N::W<T>::m = [] { return use + sizeof(T); }();\n\
         struct S { static inline int si = [] { return use; }(); };\n\
         template<class T> T vt = [](T x) { return x + use; }(T(1));\n\
         int q() { return N::W<long>::m + vt<int>; }",
        expect![[r#"
            use
            a1
            _ZL2a3
            a4
            _ZN12_GLOBAL__N_12a5E
            _ZN1S2siE
            _Z1qv
            _ZNK2a1MUlvE_clEv
            _ZNK2a1MUliE0_clEi
            _ZNKL2a3MUlvE_clEv
            _ZNK2a4MUlvE_clEv
            _ZNK12_GLOBAL__N_12a5MUlvE_clEv
            _ZNK1SUlvE_clEv
            _ZN1N1WIlE1mE
            _Z2vtIiE
            _ZNK1N1WIlE1mMUlvE_clEv
            _ZNK2vtIiEUliE_clEi
        "#]],
    );
}

#[test]
fn static_locals_and_references_to_temporaries() {
    // g++: a static local is constructed on first pass and destroyed at
    // exit (`Vec<int>(int, int)`, `~Vec<int>()`); a temporary bound to a
    // namespace-scope reference lives as long as it (`~Q<int>()`).
    closure(
        "template<class T> struct Vec { Vec(int a, int b) { grow(a + b); } ~Vec() {} void grow(int) {} };\n\
         template<class T> int f(T) { return sizeof(T); }\n\
         void g() { static Vec<int> v(1, f('c')); }\n\
         struct Tmp { Tmp(int); ~Tmp(); };\n\
         template<class T> struct Q { ~Q() {} };\n\
         const Tmp& r = Tmp(f(1L));\n\
         const Q<int>& rq = Q<int>();",
        expect![[r#"
            _Z1gv
            _ZN3TmpC1Ei
            _ZN3TmpD1Ev
            r
            rq
            _ZZ1gvE1v
            _Z1fIcEiT_
            _ZN3VecIiEC1Eii
            _ZN3VecIiED1Ev
            _Z1fIlEiT_
            _ZN1QIiED1Ev
            _ZN3VecIiE4growEi
        "#]],
    );
}
