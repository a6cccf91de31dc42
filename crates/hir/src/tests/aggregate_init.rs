//! Aggregate initialization ([dcl.init.aggr], `infer/aggregate.rs`): the
//! constructors that braced lists call for the members of aggregates
//! (expected names from g++ 12's `nm`).

use expect_test::expect;

#[test]
fn aggregate_members_are_copy_initialized() {
    // `{"a", 1, false}` for `B` constructs `B::name` from `const char*`;
    // a member the list does not name is value-initialized (`Str<int>()`).
    super::closure(
        "template<class C> struct Str { Str() {} Str(const C* p) {} };\n\
         struct B { Str<char> name; int k; bool t; };\n\
         struct N { B b; Str<char> extra; Str<int> none; };\n\
         void user() {\n\
           const B bs[] = { {\"a\", 1, false}, {\"b\", 2, true} };\n\
           N n = { {\"d\", 4, true}, \"e\" };\n\
         }\n",
        expect![[r#"
            _Z4userv
            _ZN3StrIcEC1EPKc
            _ZN3StrIiEC1Ev
        "#]],
    );
}

#[test]
fn empty_braces_value_initialize() {
    // `new (p) E{}` and `E{}` call the aggregate's implicit default
    // constructor (g++ 12 emits `E::E()`); `new (p) F{3}` initializes
    // `F::b` from `3`.
    super::closure(
        "inline void* operator new(unsigned long, void* p) noexcept { return p; }\n\
         template<class T> struct B { B() {} B(int) {} };\n\
         struct E { B<short> b; int x; };\n\
         struct F { B<long> b; int x; };\n\
         void f(void* p) { new (p) E{}; new (p) F{3}; }\n\
         void g() { E e = E{}; }\n",
        expect![[r#"
            _ZnwmPv
            _Z1fPv
            _Z1gv
            _ZN1EC1Ev
            _ZN1BIlEC1Ei
            _ZN1BIsEC1Ev
        "#]],
    );
}

#[test]
fn designated_members_are_initialized_by_name() {
    // `.name = "a"` constructs `Str<char>` from `const char*`; `.k` skips
    // `mid`, value-initialized (`Str<short>()`); `.u = 2` constructs the
    // union's named member only.
    super::closure(
        "template<class C> struct Str { Str() {} Str(const C* p) {} Str(int) {} };\n\
         struct B { Str<char> name; Str<short> mid; int k; };\n\
         union U { int i; Str<unsigned> u; };\n\
         struct A { Str<long> xs[2]; };\n\
         void user() {\n\
           B b{.name = \"a\", .k = 3};\n\
           U u = {.u = 2};\n\
           A a{.xs = {[1] = 4}};\n\
         }\n",
        expect![[r#"
            _Z4userv
            _ZN3StrIcEC1EPKc
            _ZN3StrIsEC1Ev
            _ZN3StrIjEC1Ei
        "#]],
    );
}
