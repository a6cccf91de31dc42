//! Execution spaces and `constexpr` merged over redeclarations
//! (`exec_space`), asked for each function declarator of a unit through
//! `locate::fn_decl_at`, as the host printer asks.

use expect_test::{Expect, expect};

use crate::exec_space::{fn_exec_space, fn_is_constexpr};

/// Each function declarator of `text` (bodies excluded): its line, its
/// name as written, and the merged space and constexpr-ness of what it
/// declares (`-` where the model has no declaration there).
fn check(text: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let parse = cufront_base_db::parse(&db, tu);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let mut out = String::new();
    cufront_cuda::walk::walk(&parse.syntax_node(), &mut |node, _| {
        for (_, d) in cufront_cuda::spaces::declarators(node) {
            let (Some(_), Some(name)) =
                (cufront_cuda::decl::function_declarator(&d), cufront_cuda::decl::name_node(&d))
            else {
                continue;
            };
            let at = u32::from(name.text_range().start());
            let line = text[..at as usize].matches('\n').count() + 1;
            let what = match crate::locate::fn_decl_at(&db, tu, at) {
                Some(f) => {
                    let c = if fn_is_constexpr(&db, f) { " constexpr" } else { "" };
                    format!("{:?}{c}", fn_exec_space(&db, f))
                }
                None => "-".to_string(),
            };
            out.push_str(&format!("{line} {}: {what}\n", name.text().to_string().trim()));
        }
    });
    want.assert_eq(&out);
}

#[test]
fn redeclarations_merge_spaces() {
    check(
        "__attribute__((device)) void f(int);\nvoid f(int x) {}\n\
         __attribute__((host)) int g();\n__attribute__((device)) int g();\n\
         void f(float);\n",
        expect![[r#"
            1 f: Device
            2 f: Device
            3 g: HostDevice
            4 g: HostDevice
            5 f: ImplicitHost
        "#]],
    );
}

#[test]
fn members_and_out_of_class_definitions() {
    check(
        "namespace n { struct W { __attribute__((device)) int get() const; int get(); }; }\n\
         int n::W::get() const { return 1; }\n\
         namespace n { int W::get() { return 2; } }\n\
         template <class T> __attribute__((global)) void k(T *p);\n\
         template <class U> void k(U *q) {}\n\
         template <class T> struct B { __attribute__((device)) void m(T); };\n\
         template <class T> void B<T>::m(T) {}\n",
        expect![[r#"
            1 get: Device
            1 get: ImplicitHost
            2 n::W::get: Device
            3 W::get: ImplicitHost
            4 k: Global
            5 k: Global
            6 m: Device
            7 B<T>::m: Device
        "#]],
    );
}

#[test]
fn constexpr_on_any_declaration() {
    check(
        "constexpr int sq(int x);\nconstexpr int sq(int x) { return x * x; }\nint sq(int x);\nint cube(int);\n",
        expect![[r#"
            1 sq: ImplicitHost constexpr
            2 sq: ImplicitHost constexpr
            3 sq: ImplicitHost constexpr
            4 cube: ImplicitHost
        "#]],
    );
}

/// What the item tree does not lower as a declaration of its own has none
/// here: an explicit specialization of a function template.
#[test]
fn explicit_specializations_are_not_located() {
    check(
        "template <class T> __attribute__((global)) void k(T);\n\
         template <> __attribute__((global)) void k<int>(int);\n",
        expect![[r#"
            1 k: Global
            2 k<int>: -
        "#]],
    );
}

/// A friend declaration without a body declares a function of the
/// enclosing namespace: its attributes and `constexpr` merge into that
/// function's (the friend declarator itself is no declaration here).
#[test]
fn friend_declarations_declare_namespace_functions() {
    check(
        "namespace n { struct F { friend __attribute__((device)) int df(F); friend constexpr int cf(F); \
         friend int other(F); }; }\n\
         int n::df(n::F);\nnamespace n { int df(F) { return 1; } int df(int); constexpr int cf(F f) { return 2; } }\n\
         int df(n::F);\n",
        expect![[r#"
            1 df: -
            1 cf: -
            1 other: -
            2 n::df: ImplicitHost
            3 df: Device
            3 df: ImplicitHost
            3 cf: ImplicitHost constexpr
            4 df: ImplicitHost
        "#]],
    );
}

/// A friend a class body defines is a member of the enclosing namespace:
/// a declaration there gives it its space (and the other way round, a
/// friend declaration without a body gives the namespace's definition).
#[test]
fn hidden_friends_merge_with_their_namespace() {
    check(
        "namespace n { struct S; __attribute__((device)) int hf(S); \
         struct S { friend int hf(S) { return 1; } friend int g(S) { return 2; } }; }\n",
        expect![[r#"
            1 hf: Device
            1 hf: Device
            1 g: ImplicitHost
        "#]],
    );
}
