use cufront_syntax::{ParseOptions, SyntaxKind};

use crate::spaces::{ExecSpace, declarators, function_key};
use crate::{attrs, walk};

/// Each function declared in `src`: its spelled key and the space its own
/// attributes give, in source order.
fn keys(src: &str) -> Vec<(String, ExecSpace)> {
    let parse = cufront_syntax::parse(src, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let root = parse.syntax_node();
    let mut out = Vec::new();
    walk::walk(&root, &mut |node, ctx| {
        for (specs, d) in declarators(node) {
            if let Some(key) = function_key(&d, ctx) {
                out.push((key, ExecSpace::from_attrs(&attrs::of_declarator(specs.as_ref(), &d))));
            }
        }
    });
    out
}

#[test]
fn keys_and_own_spaces() {
    let got = keys(
        "__attribute__((device)) void f(int);\nvoid f(int x) {}\n\
         __attribute__((host)) int g();\n__attribute__((device)) __attribute__((host)) int g();\n",
    );
    assert_eq!(
        got,
        [
            ("f(int)".to_string(), ExecSpace::Device),
            ("f(int)".to_string(), ExecSpace::ImplicitHost),
            ("g()".to_string(), ExecSpace::Host),
            ("g()".to_string(), ExecSpace::HostDevice),
        ]
    );
}

#[test]
fn members_and_out_of_class_definitions() {
    let got = keys(
        "namespace n { struct W { __attribute__((device)) int get() const; int get(); }; }\n\
         int n::W::get() const { return 1; }\n\
         template <class T> __attribute__((global)) void k(T *p) {}\n",
    );
    assert_eq!(
        got,
        [
            ("n::W::get()const ".to_string(), ExecSpace::Device),
            ("n::W::get()".to_string(), ExecSpace::ImplicitHost),
            ("n::W::get()const ".to_string(), ExecSpace::ImplicitHost),
            ("k<>(T *)".to_string(), ExecSpace::Global),
        ]
    );
}

#[test]
fn variables_are_not_functions() {
    let got = keys("__attribute__((device)) int (*fp)(int);\nint (*make(int))[4];\n");
    assert_eq!(got, [("make(int)".to_string(), ExecSpace::ImplicitHost)]);
    let _ = SyntaxKind::SOURCE_FILE;
}

#[test]
fn noreturn_in_every_spelling() {
    let src = "[[noreturn]] void a();\n_Noreturn void b();\nextern void c() __attribute__ ((__noreturn__));\n\
               [[gnu::noreturn]] void d();\n__declspec(noreturn) void e();\nvoid f(void (*g)() __attribute__((noreturn)));\n\
               [[nodiscard]] int h();\n";
    let parse = cufront_syntax::parse(src, ParseOptions::default());
    let root = parse.syntax_node();
    let mut got = Vec::new();
    for d in root.descendants().filter(|n| n.kind() == SyntaxKind::SIMPLE_DECL) {
        let specs = d.children().find(|c| c.kind() == SyntaxKind::DECL_SPECIFIERS);
        let Some(decl) = d.descendants().find(|c| c.kind() == SyntaxKind::DECLARATOR) else { continue };
        let name =
            decl.descendants_with_tokens().find_map(|t| t.into_token().filter(|t| t.kind() == SyntaxKind::IDENT));
        got.push((
            name.map(|t| t.text().to_string()).unwrap_or_default(),
            crate::attrs::is_noreturn(specs.as_ref(), &decl),
        ));
    }
    let want: Vec<(String, bool)> =
        [("a", true), ("b", true), ("c", true), ("d", true), ("e", true), ("f", false), ("h", false)]
            .iter()
            .map(|(n, b)| (n.to_string(), *b))
            .collect();
    assert_eq!(got, want);
}
