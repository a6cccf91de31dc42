//! CCCL-style template machinery (thrust, cub, libcu++): template template
//! parameters deduced in partial specializations, variable templates in
//! template arguments, and what they feed into mangled names.

use expect_test::{Expect, expect};

use super::db_with;
use crate::ty;

/// Renders the canonical type each type-id of `text` denotes.
fn types(text: &str, names: &[&str], want: Expect) {
    let (db, tu) = db_with(text);
    let mut out = String::new();
    for n in names {
        match crate::type_named_or_error(&db, tu, n) {
            Some(t) => out.push_str(&format!("{n} = {}\n", ty::display(&db, ty::canonical(&db, t)))),
            None => out.push_str(&format!("{n}: not a type\n")),
        }
    }
    want.assert_eq(&out);
}

#[test]
fn template_template_parameter_in_partial_specialization() {
    // thrust's `rebind_pointer`: `Ptr<OldT, Tail...>` deduces the template
    // and its arguments (defaults included); the more specialized pattern
    // wins for a `pointer<T, Tag, Ref<T>>`.
    types(
        "template <typename Ptr, typename T> struct rebind_pointer;
         template <typename T, typename U> struct rebind_pointer<T*, U> { using type = U*; };
         template <template <typename, typename...> class Ptr, typename OldT, typename... Tail, typename T>
         struct rebind_pointer<Ptr<OldT, Tail...>, T> { using type = Ptr<T, Tail...>; };
         template <template <typename, typename, typename, typename...> class Ptr, typename OldT, typename Tag,
                   template <typename...> class Ref, typename... RefTail, typename... PtrTail, typename T>
         struct rebind_pointer<Ptr<OldT, Tag, Ref<OldT, RefTail...>, PtrTail...>, T> {
             using type = Ptr<T, Tag, Ref<T, RefTail...>, PtrTail...>;
         };
         template <typename T> class dptr { T* p; };
         template <typename T, typename A = int> class two { T* p; };
         template <typename T, typename Tag, typename Ref, typename D = void> class ptr3 { T* p; };
         template <typename T> struct refr {};
         struct tag {};",
        &[
            "rebind_pointer<dptr<void>, float>::type",
            "rebind_pointer<two<void>, float>::type",
            "rebind_pointer<two<void, char>, float>::type",
            "rebind_pointer<void*, float>::type",
            "rebind_pointer<ptr3<int, tag, refr<int>>, float>::type",
        ],
        expect![[r#"
            rebind_pointer<dptr<void>, float>::type = dptr<float>
            rebind_pointer<two<void>, float>::type = two<float, int>
            rebind_pointer<two<void, char>, float>::type = two<float, char>
            rebind_pointer<void*, float>::type = float*
            rebind_pointer<ptr3<int, tag, refr<int>>, float>::type = ptr3<float, tag, refr<float>, void>
        "#]],
    );
}

#[test]
fn variable_template_in_template_argument() {
    types(
        "template <class T, class U> constexpr bool is_same_v = __is_same(T, U);
         template <bool B, class T, class F> struct cond { using type = T; };
         template <class T, class F> struct cond<false, T, F> { using type = F; };
         struct use_default {};
         template <class T, class R = use_default> struct ref {
             using type = typename cond<is_same_v<R, use_default>, T&, R>::type;
         };",
        &["ref<int>::type", "ref<int, long>::type"],
        expect![[r#"
            ref<int>::type = int&
            ref<int, long>::type = long
        "#]],
    );
}

#[test]
fn decltype_detection_and_user_conversions() {
    // `is_convertible` through `decltype(test<To>(declval<From>()))`: a
    // class converts to an unrelated class only through a converting
    // constructor or a conversion function; derived-to-base always.
    types(
        "template <class T> T&& declval() noexcept;
         template <bool B> struct bc { static constexpr bool value = B; };
         namespace imp {
         template <class T> void test_convert(T);
         template <class From, class To, class = void> struct conv : bc<false> {};
         template <class From, class To> struct conv<From, To, decltype(imp::test_convert<To>(declval<From>()))> : bc<true> {};
         }
         struct A {}; struct B : A {}; struct C {}; struct D { D(int); }; struct E { operator A() const; };
         template <bool> struct pick { using type = int; };
         template <> struct pick<false> { using type = long; };",
        &[
            "pick<imp::conv<B, A>::value>::type",
            "pick<imp::conv<A, B>::value>::type",
            "pick<imp::conv<C, A>::value>::type",
            "pick<imp::conv<int, D>::value>::type",
            "pick<imp::conv<E, A>::value>::type",
            "pick<imp::conv<A, int>::value>::type",
        ],
        expect![[r#"
            pick<imp::conv<B, A>::value>::type = int
            pick<imp::conv<A, B>::value>::type = long
            pick<imp::conv<C, A>::value>::type = long
            pick<imp::conv<int, D>::value>::type = int
            pick<imp::conv<E, A>::value>::type = int
            pick<imp::conv<A, int>::value>::type = long
        "#]],
    );
}

#[test]
fn nearer_base_wins_overload_resolution() {
    // [over.ics.rank]/4.4: binding to a nearer base is better (tag dispatch).
    types(
        "struct t1 {}; struct t2 : t1 {}; struct t3 : t2 {};
         struct r1 {}; struct r2 {};
         r1 f(const t1&); r2 f(const t2&);
         using x = decltype(f(t3{}));",
        &["x"],
        expect![[r#"
            x = r2
        "#]],
    );
}

#[test]
fn variable_template_partial_specialization() {
    // libcu++'s `is_same_v` and `declval` are variable templates with
    // partial specializations (`declval` a function pointer).
    types(
        "template <class T, class U> constexpr bool same_v = false;
         template <class T> constexpr bool same_v<T, T> = true;
         template <class...> using void_t = void;
         template <class T> using id_t = T;
         template <class T, class = void> extern id_t<void (*)() noexcept> dv;
         template <class T> extern id_t<T && (*)() noexcept> dv<T, void_t<T&&>>;
         template <bool B, class T, class F> struct cond { using type = T; };
         template <class T, class F> struct cond<false, T, F> { using type = F; };
         struct S { int m(); };
         using a = cond<same_v<int, int>, char, long>::type;
         using b = cond<same_v<int, long>, char, long>::type;
         using c = decltype(dv<S>());",
        &["a", "b", "c"],
        expect![[r#"
            a = char
            b = long
            c = S&&
        "#]],
    );
}

/// One line per `static_assert` of the unit: its outcome.
fn asserts(text: &str, want: Expect) {
    use crate::static_asserts::{Outcome, evaluate, unit_asserts};
    let (db, tu) = db_with(text);
    let mut out = String::new();
    for a in unit_asserts(&db, tu).iter() {
        let o = match evaluate(&db, tu, a) {
            Outcome::True => "true".to_string(),
            Outcome::False => "FALSE".to_string(),
            Outcome::Dependent => "dependent".to_string(),
            Outcome::Discarded => "discarded".to_string(),
            Outcome::NotEvaluated(e) => format!("error: {e}"),
        };
        out.push_str(&o);
        out.push('\n');
    }
    want.assert_eq(&out);
}

#[test]
fn concept_emulation_true_and_false() {
    // libcu++'s C++17 concept emulation (`_CCCL_CONCEPT_FRAGMENT`,
    // `_CCCL_FRAGMENT`, `__cccl_requires`) as it expands: a concept is true
    // when `sizeof` of a call picks the overload whose second parameter is
    // `decltype(&impl<As...>)`; `impl`'s return type fails to substitute when
    // a requirement does — `requires_<false>` (its defaulted non-type
    // parameter's type does not exist) or an invalid expression (`*i`) in a
    // comma's left operand — and the ellipsis overload (`char (&f(...))[2]`,
    // a function returning a reference to an array) is picked instead.
    // Checked against g++ 12; false concepts must read false.
    asserts(
        "template <bool> struct sel {};
         template <> struct sel<true> { template <class T> using type = T; };
         template <bool B, class T = void> using enable_if_t = typename sel<B>::template type<T>;
         template <class...> struct tag;
         template <bool B, enable_if_t<B, int> = 0> constexpr int requires_ = 0;
         template <class T> struct is_ptr { static constexpr bool value = false; };
         template <class T> struct is_ptr<T*> { static constexpr bool value = true; };
         template <class T> constexpr bool is_ptr_v = is_ptr<T>::value;
         template <class I>
         auto ptr_impl() -> enable_if_t<!(decltype(void(), ::requires_<is_ptr_v<I>>, void(), false){})> {}
         template <class... As> char ptr_(tag<As...>*, decltype(&ptr_impl<As...>));
         char (&ptr_(...))[2];
         template <class I> constexpr bool ptr = (1u == sizeof(ptr_(static_cast<tag<I>*>(nullptr), nullptr)));
         template <class I>
         auto deref_impl(const I& i) -> enable_if_t<!(decltype(void(), *i, void(), false){})> {}
         template <class... As> char deref_(tag<As...>*, decltype(&deref_impl<As...>));
         char (&deref_(...))[2];
         template <class I> constexpr bool deref = (1u == sizeof(deref_(static_cast<tag<I>*>(nullptr), nullptr)));
         struct S {};
         struct D { int operator*() const; };
         static_assert(ptr<int*>, \"\");
         static_assert(!ptr<S>, \"\");
         static_assert(!ptr<D>, \"\");
         static_assert(deref<int*>, \"\");
         static_assert(!deref<S>, \"\");
         static_assert(deref<D>, \"\");
         template <class I> constexpr unsigned size = sizeof(decltype(ptr_(static_cast<tag<I>*>(nullptr), nullptr)));
         static_assert(size<S> == 2, \"\");
         static_assert(size<int*> == 1, \"\");",
        expect![[r#"
            true
            true
            true
            true
            true
            true
            true
            true
        "#]],
    );
}

#[test]
fn function_returning_a_reference_to_an_array() {
    // `char (&f(...))[2]` declares a function (the suffix next to the name
    // binds first), not a reference: it is a candidate, worse than any
    // non-ellipsis one. Checked against g++ 12.
    types(
        "char g(int*); char (&g(...))[2];
         template <class T> char h(T*); char (&h(...))[2];
         using a = decltype(g((int*)0));
         using b = decltype(g(1.0));
         using c = decltype(h((int*)0));
         using d = decltype(h(1));",
        &["a", "b", "c", "d"],
        expect![[r#"
            a = char
            b = char[2]&
            c = char
            d = char[2]&
        "#]],
    );
}

#[test]
fn noexcept_operator_of_a_construction() {
    // libcu++'s `is_nothrow_constructible`: `noexcept(_Tp(declval<_Args>()...))`,
    // whose value selects `expected`'s base specializations. g++ 12: true
    // for the trivial move and the `noexcept` one, false for `Q`'s.
    asserts(
        "template<class T> T&& declval() noexcept;
         template<class T, class... A> struct is_nt { static constexpr bool value = noexcept(T(declval<A>()...)); };
         struct P { int a; };
         struct Q { Q(); Q(Q&&); };
         struct R { R(); R(R&&) noexcept; };
         static_assert(is_nt<P, P&&>::value, \"\");
         static_assert(!is_nt<Q, Q&&>::value, \"\");
         static_assert(is_nt<R, R&&>::value, \"\");",
        expect![[r#"
            true
            true
            true
        "#]],
    );
}
