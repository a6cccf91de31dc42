//! `return e;` into the same class type: a glvalue is copied or moved, a
//! parameter named is moved, a local named is constructed in place (g++'s
//! NRVO), a prvalue is elided (checked against g++ 12's calls in `objdump -dr`).

use expect_test::expect;

use super::calls;

const H: &str = "template<class T> T&& mv(T& t) { return static_cast<T&&>(t); }\n\
    struct U { U() {} U(const U&) {} U(U&&) {} };\n\
    struct H { U m; U get() const; U take(); static U pass(U p); static U local(); static U pr(); };\n\
    U H::get() const { return m; }\n\
    U H::take() { return mv(m); }\n\
    U H::pass(U p) { return p; }\n\
    U H::local() { U x; return x; }\n\
    U H::pr() { return U(); }\n";

#[test]
fn returning_a_glvalue_copies_or_moves() {
    calls(
        H,
        "get",
        expect![[r#"
        _ZN1UC1ERKS_
    "#]],
    );
    calls(
        H,
        "take",
        expect![[r#"
        _Z2mvI1UEOT_RS1_
        _ZN1UC1EOS_
    "#]],
    );
    calls(
        H,
        "pass",
        expect![[r#"
        _ZN1UC1EOS_
    "#]],
    );
}

#[test]
fn returning_a_local_or_a_prvalue_constructs_in_place() {
    calls(
        H,
        "local",
        expect![[r#"
        _ZN1UC1Ev
    "#]],
    );
    calls(
        H,
        "pr",
        expect![[r#"
        _ZN1UC1Ev
    "#]],
    );
}
