//! Parameter packs (deduction from `X<Ts...>`, explicit pack arguments,
//! `Dp`/`J…E`/`sp` in linkage names), block-scope aliases and the
//! implicit copy constructor beside declared ones: the entities a unit
//! requires, spelled as g++ 12 spells them (each name checked with `nm`).

use expect_test::{expect, Expect};

fn check(text: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        match name {
            Ok(n) => out.push_str(&format!("{n}\n")),
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    want.assert_eq(&out);
}

#[test]
fn pack_arguments_and_expansions() {
    check(
        "template<class... Ts> struct Soa { int n; };\n\
         template<class... Ts> struct Tup { };\n\
         template<class... Fs> Soa<Fs...> make(int n) { Soa<Fs...> s; s.n = n; return s; }\n\
         template<class... Fs> void scale(Soa<Fs...> s, float f) {}\n\
         template<class... Fs> void ptrs(Tup<Fs*...>) {}\n\
         template<unsigned long... I> struct Seq {};\n\
         template<class T, unsigned long... I> void idx(T&, Seq<I...>) {}\n\
         template<class... Ts> void h(Ts... xs) {}\n\
         template<class... Ts> void fw(Ts&&... xs) { h(xs...); }\n\
         template<class T, unsigned long N> struct Arr { T a[N]; };\n\
         template<unsigned long I, class T, unsigned long N> T& get(Arr<T, N>& a) { return a.a[I]; }\n\
         int main() {\n\
           Soa<float, double, int> s = make<float, double, int>(3);\n\
           scale(s, 2.0f);\n\
           Tup<int*, char*> t; ptrs(t);\n\
           int k = 0; idx(k, Seq<0, 1, 2>{});\n\
           fw(1, 'c', k);\n\
           Arr<int, 4> a; get<2>(a);\n\
         }",
        expect![[r#"
            main
            _Z4makeIJfdiEE3SoaIJDpT_EEi
            _Z5scaleIJfdiEEv3SoaIJDpT_EEf
            error: unexpanded pack `Fs`
            _Z3idxIiJLm0ELm1ELm2EEEvRT_3SeqIJXspT0_EEE
            _Z2fwIJicRiEEvDpOT_
            _Z3getILm2EiLm4EERT0_R3ArrIS0_XT1_EE
            _Z1hIJiciEEvDpT_
        "#]],
    );
}

#[test]
fn block_scope_aliases_and_implicit_copy() {
    check(
        "struct W { W(); W(const W&); ~W(); };\n\
         struct Y { Y(); Y(int, int); W w; };\n\
         struct D { static int cast(int); };\n\
         struct P { P(int); };\n\
         int lt() { typedef D dc; using pp = P; pp(2); { typedef P q; q(3); } Y a; Y b = a; return dc::cast(1); }",
        expect![[r#"
            _ZN1WC1Ev
            _ZN1WC1ERKS_
            _ZN1WD1Ev
            _ZN1YC1Ev
            _ZN1YC1Eii
            _ZN1D4castEi
            _ZN1PC1Ei
            _Z2ltv
            _ZN1YC1ERKS_
            _ZN1YD1Ev
        "#]],
    );
}
