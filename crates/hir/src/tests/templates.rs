//! Class templates: instantiation, defaults, packs, partial specialization
//! selection and ordering, dependent member types, alias templates, the
//! depth limit.

use expect_test::{Expect, expect};

use super::db_with;

/// Renders the layout of each type (a type-id, template-ids included) of `text`.
fn check(text: &str, types: &[&str], want: Expect) {
    let (db, tu) = db_with(text);
    let mut out = String::new();
    for t in types {
        match crate::type_named(&db, tu, t) {
            Some(ty) => out.push_str(&crate::layout::render_ty(&db, ty)),
            None => out.push_str(&format!("{t}: no such type\n")),
        }
    }
    want.assert_eq(&out);
}

#[test]
fn members_and_nesting() {
    check(
        "template<class T1, class T2> struct pair { T1 first; T2 second; };
         struct H { pair<int, double> p; pair<char, pair<char, int> > q; };",
        &["pair<int, double>", "H"],
        expect![[r#"
            pair<int, double>: size 16 align 8
              0: first int
              8: second double
            H: size 32 align 8
              0: p pair<int, double>
              16: q pair<char, pair<char, int> >
        "#]],
    );
}

#[test]
fn defaults_use_earlier_arguments() {
    check(
        "template<class T> struct alloc { T* p; };
         template<class T, class A = alloc<T>, int N = sizeof(T) * 2> struct vec { A a; T buf[N]; };
         template<class T, class A> struct vec;
         struct U { vec<short> v; vec<char, alloc<int>, 3> w; };",
        &["vec<short>", "vec<short, alloc<short>, 4>", "U"],
        expect![[r#"
            vec<short, alloc<short>, 4>: size 16 align 8
              0: a alloc<short>
              8: buf short[4]
            vec<short, alloc<short>, 4>: size 16 align 8
              0: a alloc<short>
              8: buf short[4]
            U: size 32 align 8
              0: v vec<short, alloc<short>, 4>
              16: w vec<char, alloc<int>, 3>
        "#]],
    );
}

#[test]
fn partial_specialization_selection_and_ordering() {
    check(
        "template<class T, class U> struct S { char c; };
         template<class T> struct S<T, int> { short s; };
         template<class T> struct S<T*, int> { int i; };
         template<class T, class U> struct S<T*, U*> { long l; };
         template<> struct S<char, char> { double d; };
         template<int N> struct B { char b[N]; };
         template<> struct B<0> { };
         template<int N> struct B2 : B<N> {};",
        &[
            "S<float, float>",
            "S<float, int>",
            "S<float*, int>",
            "S<int*, long*>",
            "S<char, char>",
            "S<int*, int*>",
            "B<3>",
            "B<0>",
            "B2<2>",
        ],
        expect![[r#"
            S<float, float>: size 1 align 1
              0: c char
            S<float, int>: size 2 align 2
              0: s short
            S<float*, int>: size 4 align 4
              0: i int
            S<int*, long*>: size 8 align 8
              0: l long
            S<char, char>: size 8 align 8
              0: d double
            S<int*, int*>: size 8 align 8
              0: l long
            B<3>: size 3 align 1
              0: b char[3]
            B<0>: size 1 align 1 [empty]
            B2<2>: size 2 align 1 [non-pod]
              0: base B<2>
        "#]],
    );
}

#[test]
fn ambiguous_partial_specializations_are_an_error() {
    check(
        "template<class T, class U> struct A { };
         template<class T> struct A<T, int> { int x; };
         template<class T> struct A<int, T> { int y; };",
        &["A<char, int>", "A<int, int>"],
        expect![[r#"
            A<char, int>: size 4 align 4
              0: x int
            A<int, int>: not laid out: ambiguous partial specializations: A<T, int>, A<int, T>
        "#]],
    );
}

#[test]
fn packs_and_recursive_partial_specializations() {
    check(
        "typedef unsigned long size_t;
         template<size_t I, class... Ts> struct impl;
         template<size_t I> struct impl<I> { };
         template<size_t I, class H, class... Ts> struct impl<I, H, Ts...> : impl<I + 1, Ts...> { H head; };
         template<class... Ts> struct tuple : impl<0, Ts...> { static constexpr size_t n = sizeof...(Ts); };
         template<class... Ts> struct all : Ts... { };
         struct E1 {}; struct E2 {};
         struct T { tuple<char, int, double> t; char tail[tuple<int, int>::n]; all<E1, E2> e; };",
        &["tuple<char, int, double>", "tuple<>", "T"],
        expect![[r#"
            tuple<char, int, double>: size 16 align 8 [non-pod]
              0: base impl<0, char, int, double>
            tuple<>: size 1 align 1 [empty, non-pod]
              0: base impl<0>
            T: size 24 align 8 [non-pod]
              0: t tuple<char, int, double>
              16: tail char[2]
              18: e all<E1, E2>
        "#]],
    );
}

#[test]
fn dependent_member_types_and_alias_templates() {
    check(
        "template<class T> struct traits { typedef T* pointer; template<class U> struct rebind { typedef U other; }; };
         template<class T> using ptr_t = typename traits<T>::pointer;
         template<bool B, class T, class F> struct cond { typedef T type; };
         template<class T, class F> struct cond<false, T, F> { typedef F type; };
         template<class T, T v> struct ic { static constexpr T value = v; };
         template<class T> struct is_big : ic<bool, (sizeof(T) > 4)> {};
         template<class T> struct holder {
           typedef typename traits<T>::pointer pointer;
           typedef typename traits<T>::template rebind<long>::other other;
           pointer p; other o; ptr_t<char> q;
           typename cond<is_big<T>::value, double, char>::type c;
           struct inner { T t; pointer p; } in;
         };",
        &["holder<int>", "holder<double>", "holder<int>::inner"],
        expect![[r#"
            holder<int>: size 48 align 8
              0: p int*
              8: o long
              16: q char*
              24: c char
              32: in holder<int>::inner
            holder<double>: size 48 align 8
              0: p double*
              8: o long
              16: q char*
              24: c double
              32: in holder<double>::inner
            holder<int>::inner: size 16 align 8
              0: t int
              8: p int*
        "#]],
    );
}

#[test]
fn type_traits_and_empty_base_specializations() {
    check(
        "template<class T, bool = __is_empty(T) && !__is_final(T)> struct head { T h; };
         template<class T> struct head<T, true> : T { };
         struct E {}; struct F final {};
         struct X { head<E> a; head<int> b; head<F> c; };",
        &["X"],
        expect![[r#"
            X: size 12 align 4 [non-pod]
              0: a head<E, true>
              4: b head<int, false>
              8: c head<F, false>
        "#]],
    );
}

#[test]
fn instantiation_depth_limit() {
    let run = || {
        check(
            "template<int N> struct R { R<N - 1> r; char c; };
             template<> struct R<0> { char c; };
             template<int N> struct Inf { Inf<N + 1> next; };
             struct Ok { R<150> r; };",
            &["Ok", "Inf<0>"],
            expect![[r#"
                Ok: size 151 align 1
                  0: r R<150>
                Inf<0>: not laid out: needs template instantiation: instantiation depth exceeds 200
            "#]],
        )
    };
    // Deep instantiation needs stack: as the CLI's main thread has.
    std::thread::Builder::new().stack_size(64 << 20).spawn(run).expect("thread").join().expect("no panic");
}

/// `decltype` text read by the short reader (`type_tokens`) splits at
/// bytes, never inside a multi-byte character (the fuzz campaign's check
/// target panicked on `decltype(aut…)` followed by non-ASCII bytes).
#[test]
fn decltype_text_with_multibyte_characters() {
    check(
        "struct X { decltype(aut\u{e9}\u{e9}) a; int b; };\nstruct Y { decltype(\u{e9}) a; char c; };",
        &["X", "Y"],
        expect![[r#"
            X: not laid out: dependent type decltype(autéé)
            Y: not laid out: dependent type decltype(é)
        "#]],
    );
}

/// A `decltype` base ([class.derived]): the detection idiom of CuTe's
/// `is_tuple<T> : decltype(detail::has_tuple_size((T*)0))`, whose
/// overload (a substitution failure removing the template) decides the
/// base; the operand's names are no path, and unqualified lookup in the
/// base clause does not search the class's own (not yet known) bases.
#[test]
fn decltype_bases() {
    check(
        "template <bool B> struct bool_constant { static constexpr bool value = B; };
         using false_type = bool_constant<false>;
         template <class T> struct tuple_size;
         template <class... T> struct tuple {};
         template <class... T> struct tuple_size<tuple<T...>> { static constexpr int value = sizeof...(T); };
         namespace detail {
         template <class T> auto has_tuple_size(T*) -> bool_constant<(0 <= tuple_size<T>::value)>;
         auto has_tuple_size(...) -> false_type;
         }
         template <class T> struct is_tuple : decltype(detail::has_tuple_size((T*)0)) {};
         template <class T> auto f1(T*) -> bool_constant<true>;
         template <class T> struct A : decltype(f1((T*)0)) {};
         bool_constant<true> f0(int);
         struct N : decltype(f0(0)) {};
         struct X { char a[is_tuple<float>::value ? 2 : 3]; char b[is_tuple<tuple<int>>::value ? 2 : 3]; char c[A<float>::value ? 2 : 3]; };
         using T3 = bool_constant<true>;
         typedef decltype(f0(0)) T4;
         struct Y { char a[T3::value ? 2 : 3]; char b[T4::value ? 2 : 3]; char c[decltype(f0(0))::value ? 2 : 3]; char d[N::value ? 2 : 3]; };",
        &["is_tuple<float>", "is_tuple<tuple<int> >", "A<float>", "N", "X", "Y"],
        expect![[r#"
            is_tuple<float>: size 1 align 1 [empty, non-pod]
              0: base bool_constant<false>
            is_tuple<tuple<int> >: size 1 align 1 [empty, non-pod]
              0: base bool_constant<true>
            A<float>: size 1 align 1 [empty, non-pod]
              0: base bool_constant<true>
            N: size 1 align 1 [empty, non-pod]
              0: base bool_constant<true>
            X: size 7 align 1
              0: a char[3]
              3: b char[2]
              5: c char[2]
            Y: size 8 align 1
              0: a char[2]
              2: b char[2]
              4: c char[2]
              6: d char[2]
        "#]],
    );
}

/// A query cancelled by an edit unwinds through the instantiation levels it
/// was in: the thread's depth is back where it was, so the next request
/// (the daemon and the editor reuse their threads) has the whole limit.
#[test]
fn an_unwinding_instantiation_gives_its_levels_back() {
    use crate::templates::{MAX_DEPTH, nested};
    fn down(n: u32) -> Result<u32, crate::SemaError> {
        if n == 0 { Ok(0) } else { nested(|| down(n - 1)) }
    }
    for _ in 0..3 {
        let unwound = std::panic::catch_unwind(|| {
            nested(|| nested(|| -> Result<(), crate::SemaError> { std::panic::resume_unwind(Box::new("cancelled")) }))
        });
        assert!(unwound.is_err());
    }
    assert_eq!(down(MAX_DEPTH), Ok(0));
    let past = down(MAX_DEPTH + 1).unwrap_err();
    assert_eq!(past.kind(), crate::ErrorKind::Limit);
}
