//! Out-of-line definitions named in the scope of their declaration
//! (`symbols/inline_home.rs`; expected names from g++ 12's `nm`).

use expect_test::expect;

#[test]
fn definition_through_an_inline_namespace() {
    // `std::to_s` is declared in `inline namespace __cxx11`: its definition
    // qualified `std::` is that function (`_ZNSt7__cxx114to_sEi`); `plain`
    // is declared in `std` itself.
    let (db, tu) = super::db_with(
        "namespace std { inline namespace __cxx11 __attribute__((__abi_tag__(\"cxx11\"))) { struct S {}; S to_s(int); } int plain(int); }\n\
         std::S std::to_s(int) { return S(); }\n\
         int std::plain(int) { return 0; }\n",
    );
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        out.push_str(&name.unwrap_or_else(|e| format!("error: {e}")));
        out.push('\n');
    }
    expect![[r#"
        _ZNSt7__cxx114to_sEi
        _ZSt5plaini
        _ZNSt7__cxx114to_sEi
        _ZSt5plaini
    "#]].assert_eq(&out);
}
