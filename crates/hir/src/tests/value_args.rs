//! Value template arguments for parameters typed by an earlier parameter
//! (`template<class T, T v>`): converted to that type (expected names from
//! g++ 12's `nm`).

use expect_test::expect;

#[test]
fn value_argument_takes_the_type_of_its_parameter() {
    // `0xb5026f5aa96619e9ULL` for `unsigned long a` is `Lm…E`, `'a'` for
    // `unsigned char v` is `Lh97E` (libstdc++'s `mt19937_64`).
    super::closure(
        "template<class T, T a, T b> struct E { E(T s) {} };\n\
         typedef E<unsigned long, 0xb5026f5aa96619e9ULL, 5> M;\n\
         template<class T, T v> struct C { static T get() { return v; } };\n\
         void f() { M m(3); C<long, 7>::get(); C<unsigned char, 'a'>::get(); }\n",
        expect![[r#"
            _Z1fv
            _ZN1EImLm13043109905998158313ELm5EEC1Em
            _ZN1CIlLl7EE3getEv
            _ZN1CIhLh97EE3getEv
        "#]],
    );
}
