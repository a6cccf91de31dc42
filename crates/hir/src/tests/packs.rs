//! Parameter packs (deduction from `X<Ts...>`, explicit pack arguments,
//! `Dp`/`J…E`/`sp` in linkage names), block-scope aliases and the
//! implicit copy constructor beside declared ones: the entities a unit
//! requires, spelled as g++ 12 spells them (each name checked with `nm`).

use expect_test::{Expect, expect};

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

/// A miniature of libstdc++'s tuple access and index sequences: `get<I>`
/// through `_Tuple_impl`/`_Head_base`, `__integer_pack`, a fold over
/// `get<I>(t)...`, and placeholder return types (`Da`, `Dc`, `RKDa`).
#[test]
fn tuple_get_and_index_sequences() {
    check(
        "namespace std { typedef unsigned long size_t;\n\
         template<class T, T... I> struct integer_sequence {};\n\
         template<size_t... I> using index_sequence = integer_sequence<size_t, I...>;\n\
         template<size_t N> using make_index_sequence = integer_sequence<size_t, __integer_pack(N)...>;\n\
         template<size_t I, class H> struct _Head_base { static H& _M_head(_Head_base& b) { return b.h; } H h; };\n\
         template<size_t I, class... E> struct _Tuple_impl;\n\
         template<size_t I, class H, class... T> struct _Tuple_impl<I, H, T...> : _Tuple_impl<I + 1, T...>, _Head_base<I, H> {\n\
           static H& _M_head(_Tuple_impl& t) { return _Head_base<I, H>::_M_head(t); } };\n\
         template<size_t I> struct _Tuple_impl<I> {};\n\
         template<class... E> struct tuple : _Tuple_impl<0, E...> {};\n\
         template<size_t I, class H, class... T> H& __get_helper(_Tuple_impl<I, H, T...>& t) { return _Tuple_impl<I, H, T...>::_M_head(t); }\n\
         template<size_t I, class... E> auto& get(tuple<E...>& t) { return std::__get_helper<I>(t); } }\n\
         template<class... Ts> auto sum(Ts... xs) { return (xs + ... + 0); }\n\
         template<class T> const auto& cr(const T& x) { return x; }\n\
         template<class T> decltype(auto) dc(T& x) { return (x); }\n\
         template<class T, std::size_t... I> void fc(T& t, std::index_sequence<I...>) { (std::get<I>(t), ...); }\n\
         template<class... F> struct Soa { std::tuple<F*...> c; };\n\
         typedef unsigned long size_t;\n\
         int main() { int k = 1; sum(1, 2, 3); cr(k); dc(k); Soa<int, char> s; fc(s.c, std::make_index_sequence<2>{}); }",
        expect![[r#"
            main
            _Z3sumIJiiiEEDaDpT_
            _Z2crIiERKDaRKT_
            _Z2dcIiEDcRT_
            _Z2fcISt5tupleIJPiPcEEJLm0ELm1EEEvRT_St16integer_sequenceImJXspT0_EEE
            _ZSt3getILm0EJPiPcEERDaRSt5tupleIJDpT0_EE
            _ZSt3getILm1EJPiPcEERDaRSt5tupleIJDpT0_EE
            _ZSt12__get_helperILm0EPiJPcEERT0_RSt11_Tuple_implIXT_EJS2_DpT1_EE
            _ZSt12__get_helperILm1EPcJEERT0_RSt11_Tuple_implIXT_EJS1_DpT1_EE
            _ZNSt11_Tuple_implILm0EJPiPcEE7_M_headERS2_
            _ZNSt11_Tuple_implILm1EJPcEE7_M_headERS1_
            _ZNSt10_Head_baseILm0EPiE7_M_headERS1_
            _ZNSt10_Head_baseILm1EPcE7_M_headERS1_
        "#]],
    );
}

/// A pack expanded in a function type's parameters (libstdc++'s `__stoa`
/// behind `std::stoi`): deduced from the trailing pack, spelled `DpT1_`
/// inside the function type.
#[test]
fn pack_in_function_type() {
    check(
        "long cv(const char*, char**, int);\n\
         template<typename R, typename C, typename... B> R stoa(R (*f)(const C*, C**, B...), const C* s, B... b) { return f(s, 0, b...); }\n\
         int main() { return (int)stoa(&cv, \"1\", 10); }",
        expect![[r#"
            _Z2cvPKcPPci
            main
            _Z4stoaIlcJiEET_PFS0_PKT0_PPS1_DpT1_ES3_S7_
        "#]],
    );
}

/// Deduction from a function whose parameters are `restrict`-qualified
/// and `noexcept` (glibc's `strtol`): top-level qualifiers are not part of
/// the function type.
#[test]
fn deduction_from_restrict_parameters() {
    check(
        "extern \"C\" long cv(const char* __restrict, char** __restrict, int) noexcept;\n\
         extern \"C\" float cf(const char* __restrict, char** __restrict) noexcept;\n\
         template<typename R, typename C, typename... B> R stoa(R (*f)(const C*, C**, B...), const C* s, B... b) { return f(s, 0, b...); }\n\
         int main() { return (int)stoa(&cv, \"1\", 10) + (int)stoa(&cf, \"1\"); }",
        expect![[r#"
            cv
            cf
            main
            _Z4stoaIlcJiEET_PFS0_PKT0_PPS1_DpT1_ES3_S7_
            _Z4stoaIfcJEET_PFS0_PKT0_PPS1_DpT1_ES3_S7_
        "#]],
    );
}

/// Explicit template arguments that are pack expansions (`f<T, Ts...>()`,
/// libstdc++'s `holds_alternative` → `__find_uniq_type_in_pack<_Tp, _Types...>()`).
#[test]
fn explicit_pack_expansion_arguments() {
    check(
        "template<class T, class... Ts> int find() { return 0; }\n\
         template<class T, class... Ts> int holds(T, Ts...) { return find<T, Ts...>() + find<Ts..., T>(); }\n\
         int main() { return holds(1, 'c', 2.0); }",
        expect![[r#"
            main
            _Z5holdsIiJcdEEiT_DpT0_
            _Z4findIiJcdEEiv
            _Z4findIcJdiEEiv
        "#]],
    );
}
