//! Closure types and local entities (`infer/closure.rs`,
//! `instances/local.rs`): every expected name below is what g++ 12 writes
//! (`g++ -std=c++17 -c`, `nm`) for the same snippet.

use expect_test::{expect, Expect};

/// The names of the entities the unit requires that are local (`_ZZ…`) or
/// involve a closure type, in order.
fn check(text: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        match name {
            Ok(n) if n.starts_with("_ZZ") || n.contains("Ul") => out.push_str(&format!("{n}\n")),
            Ok(_) => {}
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    want.assert_eq(&out);
}

#[test]
fn closures_numbered_per_function() {
    check(
        "template<class F> void call(F f) { f(1); }\n\
         void h() {\n\
           auto a = [](int v) { return v; };\n\
           auto b = [](float v) { return v; };\n\
           call(a); call(b); a(2);\n\
           auto c = [](int v) { auto n = [](int w) { return w; }; return n(v); };\n\
           call(c);\n\
         }\n\
         int main() { int k = 0; auto m = [&k]() mutable { return k++; }; m(); h(); }",
        expect![[r#"
            _ZZ1hvENKUliE_clEi
            _ZZ1hvENKUlfE0_clEf
            _Z4callIZ1hvEUliE_EvT_
            _Z4callIZ1hvEUlfE0_EvT_
            _ZZZ1hvENKUliE1_clEiENKUliE_clEi
            _ZZ1hvENKUliE1_clEi
            _Z4callIZ1hvEUliE1_EvT_
            _ZZ4mainENUlvE_clEv
        "#]],
    );
}

#[test]
fn generic_lambdas_and_conversions() {
    check(
        "void h() {\n\
           auto gen = [](auto v, auto w) { return v + w; };\n\
           gen(1, 2.0); gen(1, 2);\n\
           auto r = [](const char *s, auto x) { return x; };\n\
           r(\"a\", 1.5f);\n\
           int (*fp)(int) = [](int x) { return x * 2; };\n\
         }",
        expect![[r#"
            _ZZ1hvENKUliE1_clEi
        "#]],
    );
}

#[test]
fn local_statics() {
    check(
        "template<class T> int f() { auto l = []{ static int c; return ++c; }; return l(); }\n\
         void h() { static int x = 1; static int y; { static int x = 2; } f<int>(); f<long>(); }\n\
         extern \"C\" void cf() { static int z; }",
        expect![[r#"
            _ZZ1hvE1x
            _ZZ1hvE1y
            _ZZ1hvE1x_0
            _ZZ2cfE1z
            _ZZZ1fIiEivENKUlvE_clEvE1c
            _ZZ1fIiEivENKUlvE_clEv
            _ZZZ1fIlEivENKUlvE_clEvE1c
            _ZZ1fIlEivENKUlvE_clEv
        "#]],
    );
}
