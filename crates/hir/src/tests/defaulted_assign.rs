//! Defaulted copy and move assignment operators assign bases and members
//! with their own `operator=` (names checked against g++ 12 `nm`).

use expect_test::expect;

use super::closure;

#[test]
fn defaulted_assignment_assigns_bases_and_members() {
    // `UP`'s defaulted move (copy) assignment calls `Data`'s, which calls
    // the base `Impl`'s user-written move (copy) assignment.
    closure(
        "template<class T> T&& fwd(T& t) { return static_cast<T&&>(t); }\n\
         template<class T> struct Impl {\n\
           Impl() {}\n\
           Impl& operator=(Impl&& o) { reset(o.release()); d = fwd<T>(o.d); return *this; }\n\
           Impl& operator=(const Impl& o) { return *this; }\n\
           void reset(T* p) {}\n\
           T* release() { return 0; }\n\
           T d;\n\
         };\n\
         template<class T> struct Data : Impl<T> { Data& operator=(Data&&) = default; Data& operator=(const Data&) = default; };\n\
         template<class T> struct UP { Data<T> t; UP& operator=(UP&&) = default; UP& operator=(const UP&) = default; };\n\
         void user() { UP<int> a, b; a = static_cast<UP<int>&&>(b); a = b; }",
        expect![[r#"
            _Z4userv
            _ZN2UPIiEC1Ev
            _ZN2UPIiEaSEOS0_
            _ZN2UPIiEaSERKS0_
            _ZN4DataIiEC1Ev
            _ZN4DataIiEaSEOS0_
            _ZN4DataIiEaSERKS0_
            _ZN4ImplIiEC1Ev
            _ZN4ImplIiEaSEOS0_
            _ZN4ImplIiEaSERKS0_
            _ZN4ImplIiE7releaseEv
            _ZN4ImplIiE5resetEPi
            _Z3fwdIiEOT_RS0_
        "#]],
    );
}

#[test]
fn implicit_assignment_assigns_bases_and_members() {
    // `M`'s implicit move assignment moves `S` and copies the base `B`
    // (whose declared copy assignment suppresses its move); `K`'s destructor
    // suppresses its implicit move assignment, so a move
    // copies; `T`'s are trivial (nothing emitted).
    closure(
        "struct S { S& operator=(const S&) { return *this; } S& operator=(S&&) { return *this; } };\n\
         struct B { B& operator=(const B&) { return *this; } };\n\
         struct M : B { S s; int v; };\n\
         struct K { ~K() {} K() {} S s; };\n\
         struct T { int a; double b; };\n\
         void user() { M a, b; a = b; a = static_cast<M&&>(b); K k, l; k = static_cast<K&&>(l); T t, u; t = u; }",
        expect![[r#"
            _ZN1SaSERKS_
            _ZN1SaSEOS_
            _ZN1BaSERKS_
            _ZN1KD1Ev
            _ZN1KC1Ev
            _Z4userv
            _ZN1MaSERKS_
            _ZN1MaSEOS_
            _ZN1KaSERKS_
        "#]],
    );
}
