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
    "#]]
    .assert_eq(&out);
}

#[test]
fn members_of_a_partial_specialization_defined_out_of_line() {
    // libstdc++'s `_Map_base<…, true>::operator[]`: the qualifier's
    // template-id names the partial specialization whose written arguments
    // it repeats (parameter names need not agree), not the primary
    // template; each body is walked (`mark<…>`), the primary's own member
    // stays the primary's.
    let (db, tu) = super::db_with(
        "template<class T> void mark() {}\n\
         struct Sel {};\n\
         template<class K, class V, class S, bool U = true> struct Map { void f(); };\n\
         template<class K, class V> struct Map<K, V*, Sel, true> {\n\
           using key_type = K;\n\
           V& operator[](const key_type& k);\n\
           V& operator[](key_type&& k);\n\
           V* v;\n\
         };\n\
         template<class K, class V> struct Map<K, V, Sel, false> { void f(); };\n\
         template<class A, class B>\n\
         auto Map<A, B*, Sel, true>::operator[](const key_type& k) -> B& { mark<A>(); return *v; }\n\
         template<class K, class V>\n\
         auto Map<K, V*, Sel, true>::operator[](key_type&& k) -> V& { mark<V>(); return *v; }\n\
         template<class K, class V> void Map<K, V, Sel, false>::f() { mark<K*>(); }\n\
         template<class K, class V, class S, bool U> void Map<K, V, S, U>::f() { mark<S>(); }\n\
         void user() { Map<int, char*, Sel> m; int k = 1; m[k]; m[2]; Map<long, int, Sel, false> n; n.f(); Map<int, int, int> p; p.f(); }\n",
    );
    expect![[r#"
        _Z4markIPlEvv
        _Z4markIcEvv
        _Z4markIiEvv
        _Z4userv
        _ZN3MapIiPc3SelLb1EEixEOi
        _ZN3MapIiPc3SelLb1EEixERKi
        _ZN3MapIiiiLb1EE1fEv
        _ZN3MapIli3SelLb0EE1fEv
    "#]]
    .assert_eq(&super::entity_names(&db, tu));
}
