//! Inference: snippets → what each body requires (mangled), and the calls left unresolved.

use expect_test::{expect, Expect};

use crate::infer::{infer, render_calls, InferOwner};

fn check(text: &str, name: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let f = super::body::fn_named(&db, tu, name).expect("function");
    let r = infer(&db, InferOwner::Fn(f));
    want.assert_eq(&render_calls(&db, &r));
}

#[test]
fn free_functions_and_overloads() {
    check(
        "void f(int); void f(double); void f(const char*); long g(long, int = 0);\n\
         namespace n { struct A {}; void h(A); int v; }\n\
         void user() { f(1); f(2.0); f(\"s\"); f('c'); g(1); n::A a; h(a); n::v = 2; }",
        "user",
        expect![[r#"
            _Z1fi
            _Z1fd
            _Z1fPKc
            _Z1gli
            _ZN1n1hENS_1AE
            _ZN1n1vE
        "#]],
    );
}

#[test]
fn members_ctors_dtors_operators() {
    check(
        "struct S { S(); S(int); S(const S&); S(S&&); ~S(); int m(int) const; static int sm(); S& operator+=(const S&); int x; };\n\
         S operator+(const S&, const S&); bool operator==(const S&, const S&);\n\
         S make();\n\
         void user() { S a; S b(1); S c = a; S d = make(); a.m(2); S::sm(); a += b; (void)(a == b); S e = a + b; S* p = new S(3); delete p; }",
        "user",
        expect![[r#"
            _ZN1SC1Ev
            _ZN1SC1Ei
            _ZN1SC1ERKS_
            _Z4makev
            _ZN1SD1Ev
            _ZNK1S1mEi
            _ZN1S2smEv
            _ZN1SpLERKS_
            _ZeqRK1SS1_
            _ZplRK1SS1_
        "#]],
    );
}
