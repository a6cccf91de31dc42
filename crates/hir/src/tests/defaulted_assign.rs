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
