//! C++20 constraints: concepts as boolean variable templates, requires-
//! clauses and type-constraints filtering overload candidates, subsumption
//! as a tie-break, requires-expressions in constant expressions; the
//! libstdc++ ranges idioms that rest on them (inherited `operator()` of a
//! range adaptor, hidden friend `operator|`). Mangled names checked
//! against g++ 12 (`-std=c++20`, `nm`): constraints are not mangled.

use expect_test::{Expect, expect};

use crate::infer::{InferOwner, infer, render_calls};

fn check(text: &str, name: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let f = super::body::fn_named(&db, tu, name).expect("function");
    let r = infer(&db, InferOwner::Fn(f));
    want.assert_eq(&render_calls(&db, &r));
}

fn asserts(text: &str, want: Expect) {
    use crate::static_asserts::{Outcome, evaluate, unit_asserts};
    let (db, tu) = super::db_with(text);
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
fn constraints_filter_candidates() {
    check(
        "template <class T> concept Small = sizeof(T) <= 4;
         template <class T> requires Small<T> int f(T) { return 1; }
         template <class T> requires (!Small<T>) long f(T) { return 2; }
         template <Small T> int g(T) { return 1; }
         template <class T> requires Small<T> && (sizeof(T) == 4) long g(T) { return 2; }
         template <class T> int h(T) requires Small<T> { return 1; }
         template <class T> long h(T) requires (!Small<T>) { return 2; }
         void user() { f(1); f(1.0); g(1); g('c'); h(1.0); }",
        "user",
        expect![[r#"
            _Z1fIiEiT_
            _Z1fIdElT_
            _Z1gIiElT_
            _Z1gIcEiT_
            _Z1hIdElT_
        "#]],
    );
}

#[test]
fn concept_ids_in_static_asserts() {
    asserts(
        "template <class T, class U> struct same { static constexpr bool value = false; };
         template <class T> struct same<T, T> { static constexpr bool value = true; };
         template <class T, class U> concept same_as = same<T, U>::value && same<U, T>::value;
         template <class T> struct is_int { static constexpr bool value = false; };
         template <> struct is_int<int> { static constexpr bool value = true; };
         template <> struct is_int<long> { static constexpr bool value = true; };
         template <class T> concept integral = is_int<T>::value;
         template <class T> concept Small = integral<T> && sizeof(T) <= 4;
         struct V { float x, y; };
         template <class T> concept HasX = requires(T v) { v.x; };
         template <class T> concept HasScale = requires(T t, float s) { t.scale(s); typename T::value_type; };
         struct M { using value_type = float; void scale(float); };
         static_assert(same_as<int, int> && !same_as<int, long>);
         static_assert(Small<int> && !Small<long> && !Small<float>);
         static_assert(HasX<V> && !HasX<float> && !HasX<M>);
         static_assert(HasScale<M> && !HasScale<V>);
         static_assert(requires { sizeof(int); });",
        expect![[r#"
            true
            true
            true
            true
            true
        "#]],
    );
}

#[test]
fn inherited_call_operator_of_an_adaptor() {
    check(
        "template <class D> struct Adaptor { template <class A> int operator()(A a) const { return 0; } };
         struct F : Adaptor<F> {
             using Adaptor<F>::operator();
             template <class R, class P> long operator()(R r, P p) const { return 1; }
         };
         inline constexpr F filt;
         void user() { filt(1); filt(1, 2); }",
        "user",
        expect![[r#"
            filt
            _ZNK7AdaptorI1FEclIiEEiT_
            _ZNK1FclIiiEElT_T0_
        "#]],
    );
}

#[test]
fn hidden_friend_operators_found_by_adl() {
    check(
        "template <class T> struct rr { using type = T; };
         template <class T> struct rr<T&> { using type = T; };
         namespace ad {
         struct Closure;
         template <class T> concept closure = __is_base_of(Closure, typename rr<T>::type);
         struct Closure {
             template <class S, class R> requires closure<S> && (!closure<R>)
             friend int operator|(R&& r, S&& s) { return 1; }
             template <class L, class R> requires closure<L> && closure<R>
             friend long operator|(L l, R r) { return 2; }
         };
         struct P : Closure {};
         }
         struct Range {};
         void user() { Range r; r | ad::P{}; ad::P{} | ad::P{}; }",
        "user",
        expect![[r#"
            _ZN2adorINS_1PER5RangeEEiOT0_OT_
            _ZN2adorINS_1PES1_EElT_T0_
        "#]],
    );
}

#[test]
fn hidden_friends_of_specializations_and_nested_classes() {
    check(
        "namespace ns {
         template <class T> struct It {
             T* p;
             friend bool operator==(const It& a, const It& b) { return a.p == b.p; }
             struct Sub { friend int dist(Sub, Sub) { return 0; } };
         };
         struct S { friend bool operator!=(S, S) { return false; } };
         }
         void user() { ns::It<int> a, b; (void)(a == b); ns::S s; (void)(s != s); ns::It<long>::Sub u; dist(u, u); }",
        "user",
        expect![[r#"
            _ZN2nseqERKNS_2ItIiEES3_
            _ZN2nsneENS_1SES0_
            _ZN2ns4distENS_2ItIlE3SubES2_
        "#]],
    );
}

#[test]
fn constrained_partial_specializations_and_nothrow_destruction() {
    // `_Partial<_Adaptor, _Arg>` of libstdc++'s ranges: two partial
    // specializations with equal patterns, one constrained. `noexcept` of a
    // destructor call is what `is_nothrow_destructible` asks.
    asserts(
        "template <class T> concept Big = sizeof(T) > 4;
         template <class T, class U> struct P { static constexpr int v = 0; };
         template <class T, class U> struct P<T, U*> { static constexpr int v = 1; };
         template <class T, class U> requires Big<T> struct P<T, U*> { static constexpr int v = 2; };
         static_assert(P<int, int*>::v == 1 && P<double, int*>::v == 2 && P<int, int>::v == 0);
         struct D { ~D(); };
         template <class T> T&& dv() noexcept;
         static_assert(noexcept(dv<D&>().~D()));",
        expect![[r#"
            true
            true
        "#]],
    );
}

#[test]
fn using_declaration_through_the_base_injected_name() {
    check(
        "namespace a { template <class D> struct Ad { template <class A> int operator()(A) const { return 0; } }; }
         namespace b { struct F : a::Ad<F> { using Ad<F>::operator(); long operator()(int, int) const { return 1; } }; inline constexpr F f; }
         void user() { b::f(1); }",
        "user",
        expect![[r#"
            _ZN1b1fE
            _ZNK1a2AdIN1b1FEEclIiEEiT_
        "#]],
    );
}

#[test]
fn false_constraints_remove_better_candidates() {
    // `f<long>` is an exact match but not viable: `f(double)` is called
    // (g++ 12: `_Z1fd`).
    check(
        "template <class T> concept Small = sizeof(T) <= 4;
         template <class T> requires Small<T> int f(T) { return 1; }
         long f(double) { return 2; }
         void user() { long x = 0; f(x); f(1); }",
        "user",
        expect![[r#"
            _Z1fd
            _Z1fIiEiT_
        "#]],
    );
}

#[test]
fn references_collapse() {
    asserts(
        "template <class T, class U> struct same { static constexpr bool value = false; };
         template <class T> struct same<T, T> { static constexpr bool value = true; };
         template <class T, class U = T&&> U dv(int);
         template <class T> struct ar { using type = T&&; };
         template <class T> struct lr { using type = const T&; };
         static_assert(same<decltype(dv<int&>(0)), int&>::value);
         static_assert(same<ar<int&>::type, int&>::value && same<ar<int&&>::type, int&&>::value);
         static_assert(same<lr<int&&>::type, int&>::value);",
        expect![[r#"
            true
            true
            true
        "#]],
    );
}

#[test]
fn non_deduced_specialization_arguments() {
    // libstdc++'s `__common_ref_impl<_Xp&&, _Yp&&, _Require<…>>`: the third
    // argument names the template being specialized and a trait of the
    // parameters; it is decided by substitution, not deduction.
    asserts(
        "template <bool B, class T = void> struct enable_if {};
         template <class T> struct enable_if<true, T> { using type = T; };
         template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
         template <class T, class U> struct same { static constexpr bool value = false; };
         template <class T> struct same<T, T> { static constexpr bool value = true; };
         template <class T> struct is_ref { static constexpr bool value = false; };
         template <class T> struct is_ref<T&> { static constexpr bool value = true; };
         template <class X, class Y, class = void> struct C {};
         template <class X, class Y> struct C<X&, Y&, void> { using type = X&; };
         template <class X, class Y> struct C<X&&, Y&&, enable_if_t<is_ref<typename C<X&, Y&>::type>::value>> { using type = X&&; };
         template <class X, class = void> struct D { static constexpr int value = 0; };
         template <class X> struct D<X, enable_if_t<!is_ref<X>::value>> { static constexpr int value = 1; };
         static_assert(same<C<int&&, int&&>::type, int&&>::value);
         static_assert(D<int>::value == 1 && D<int&>::value == 0);",
        expect![[r#"
            true
            true
        "#]],
    );
}

#[test]
fn abbreviated_function_templates() {
    // g++ 12: each `auto` parameter invents a template parameter after the
    // declared ones; `Arith auto` is a constrained placeholder.
    check(
        "template <class T> concept Arith = sizeof(T) >= 4;
         Arith auto twice(Arith auto x) { return x + x; }
         template <class T> int pair_of(T a, const auto& b) { return 0; }
         void user() { twice(1.25); twice(2); pair_of(1, 2.0f); }",
        "user",
        expect![[r#"
            _Z5twiceIdEDaT_
            _Z5twiceIiEDaT_
            _Z7pair_ofIifEiT_RKT0_
        "#]],
    );
}

#[test]
fn requirement_with_a_call_no_candidate_deduces_is_false() {
    // libstdc++'s `__is_derived_from_view_interface` (`enable_view`): the
    // only candidate's `const view_interface<U>&` cannot be deduced from a
    // complete class that derives from no `view_interface<…>`.
    asserts(
        "namespace n {\n\
         template<class D> struct view_interface {};\n\
         template<class T, class U> void is_vi_fn(const T&, const view_interface<U>&);\n\
         template<class T> concept is_vi = requires (T t) { is_vi_fn(t, t); };\n\
         struct V : view_interface<V> {};\n\
         struct B {}; struct W : B {};\n\
         }\n\
         static_assert(n::is_vi<n::V>);\n\
         static_assert(!n::is_vi<n::W>);\n\
         static_assert(!n::is_vi<int>);",
        expect![[r#"
            true
            true
            error: not evaluated: not evaluated: requires-expression (not decided)
        "#]],
    );
}

#[test]
fn conjunction_with_a_false_operand_is_false() {
    // `view<T>` is `range<T> && movable<T> && enable_view<T>`: with
    // `movable<T>` beyond the model, a false `enable_view<T>` decides.
    asserts(
        "struct S { S(); S(const S&); };\n\
         template<class T> concept Big = __is_constructible(T, T) && sizeof(T) > 100;\n\
         template<class T> concept Small = __is_constructible(T, T) || sizeof(T) < 100;\n\
         static_assert(!Big<S>);\n\
         static_assert(Small<S>);",
        expect![[r#"
            true
            true
        "#]],
    );
}

#[test]
fn operator_with_a_deduced_return_type() {
    // A range adaptor's `operator|` returns `auto`: the pipeline's type is
    // what its body returns (`use<int>` found from `wrap<int>`).
    check(
        "namespace v {\n\
         template<class T> struct wrap { T t; };\n\
         struct A {};\n\
         template<class T> auto operator|(const T& x, A) { return wrap<T>{x}; }\n\
         template<class T> int use(const wrap<T>&) { return 1; }\n\
         }\n\
         void user() { int i = 0; auto w = i | v::A{}; v::use(w); }",
        "user",
        expect![[r#"
            _ZN1vorIiEEDaRKT_NS_1AE
            _ZN1v3useIiEEiRKNS_4wrapIT_EE
        "#]],
    );
}

#[test]
fn rewritten_comparison_candidates() {
    // C++20: `a != b` as `!(a == b)`, `s == a` and `s != a` with the
    // operands reversed (g++ 12 `-std=c++20` calls only the two `operator==`).
    check(
        "namespace n { struct It { int* p; }; bool operator==(const It&, const It&);\n\
         struct S {}; bool operator==(const It&, const S&); }\n\
         void user() { n::It a{}, b{}; n::S s; (void)(a != b); (void)(s == a); (void)(s != a); }",
        "user",
        expect![[r#"
            _ZN1neqERKNS_2ItES2_
            _ZN1neqERKNS_2ItERKNS_1SE
        "#]],
    );
}

#[test]
fn member_requirement_on_an_array_is_false() {
    // `ranges::find_if(first, last, pred)` with `first` an array: the range
    // overload's `t.begin()` on `int(&)[4]` is ill-formed (arrays have no
    // members), so the iterator overload is called.
    check(
        "struct identity { template<class T> T&& operator()(T&& t) const { return static_cast<T&&>(t); } };\n\
         struct Odd { bool operator()(int x) const { return x % 2 == 1; } };\n\
         template<class T> concept Rg = requires(T& t) { t.begin(); };\n\
         struct find_fn {\n\
           template<class I, class S, class P = identity, class Pred>\n\
           I operator()(I f, S l, Pred p, P proj = {}) const { return f; }\n\
           template<Rg R, class P = identity, class Pred>\n\
           int operator()(R&& r, Pred p, P proj = {}) const { return 0; }\n\
         };\n\
         inline constexpr find_fn find{};\n\
         int user() { int a[4] = {1, 2, 3, 4}; int* it = find(a, a + 4, Odd{}); return *it; }",
        "user",
        expect![[r#"
            find
            _ZNK7find_fnclIPiS1_8identity3OddEET_S4_T0_T2_T1_
        "#]],
    );
}

#[test]
fn requirement_calling_an_unsatisfied_function_is_false() {
    // libstdc++'s `range<T>` is `requires(T& t) { ranges::begin(t); }`:
    // with `T` an iterator, `_Begin::operator()`'s constraints are false
    // (no member `begin`, ADL finds the deleted poison pill), so the
    // requirement fails and `find_if(first, last, pred)` takes the
    // iterator overload.
    check(
        "namespace s {\n\
         template<class C> auto begin(C& c) -> decltype(c.begin()) { return c.begin(); }\n\
         template<class T> struct it { T p; };\n\
         namespace ca {\n\
           void begin(auto&) = delete;\n\
           template<class T> concept adl_begin = requires(T& t) { begin(t); };\n\
           template<class T> concept mem_begin = requires(T& t) { t.begin(); };\n\
           struct B { template<class T> requires mem_begin<T&> || adl_begin<T&> int operator()(T&& t) const { return 0; } };\n\
         }\n\
         inline constexpr ca::B bg{};\n\
         template<class T> concept range = requires(T& t) { bg(t); };\n\
         struct F {\n\
           template<class I, class Pred> int operator()(I f, I l, Pred p) const { return 1; }\n\
           template<class R, class P, class Pred> requires range<R> int operator()(R&& r, Pred p, P proj) const { return 0; }\n\
         };\n\
         inline constexpr F find{};\n\
         }\n\
         int user() { s::it<int*> a{}, b{}; return s::find(a, b, 3); }",
        "user",
        expect![[r#"
            _ZN1s4findE
            _ZNK1s1FclINS_2itIPiEEiEEiT_S5_T0_
        "#]],
    );
}

/// An unqualified call in `decltype` looks in the arguments' namespaces
/// and classes even when ordinary lookup finds a function that cannot be
/// called (a poison pill, as ranges' customization points declare:
/// `void iter_move();` beside `iter_move(declval<_Tp>())`): hidden friends
/// and namespace functions are candidates. Checked with g++ 12.
#[test]
fn adl_beside_a_poison_pill_in_decltype() {
    asserts(
        "namespace lib { template<class T> struct box { struct it { friend int&& mv(const it&); }; }; struct plain {}; long mv(plain); }
         namespace cpo {
           void mv();
           template<class T> T&& declval();
           template<class T> struct res { using type = int; };
           template<class T> requires requires(T&& t) { mv(static_cast<T&&>(t)); } struct res<T> { using type = decltype(mv(declval<T>())); };
           using A = decltype(mv(declval<lib::plain>()));
         }
         static_assert(__is_same(cpo::res<lib::box<int>::it&>::type, int&&), \"\");
         static_assert(__is_same(cpo::res<lib::plain>::type, long), \"\");
         static_assert(__is_same(cpo::res<int>::type, int), \"\");
         static_assert(__is_same(cpo::A, long), \"\");",
        expect![[r#"
            FALSE
            true
            true
            true
        "#]],
    );
}

/// A member call in a requirement that no member function of that name
/// can take is certainly ill-formed: each is non-const on a const object,
/// takes another number of arguments, or is a member of a specialization
/// whose constraints are false (`view_interface<D>::size()` of a view that
/// is not sized: `sized_range<filter_view<…>>` is false). Checked with g++ 12.
#[test]
fn a_member_call_no_candidate_can_take_is_ill_formed() {
    asserts(
        "template<class T> concept has_size = requires(T& t) { t.size(); };
         template<class D> struct iface { int size() requires (sizeof(D) > 100) { return 0; } int size() const requires (sizeof(D) > 200) { return 0; } };
         struct small : iface<small> { int x; };
         struct big : iface<big> { char b[300]; };
         struct only_mutable { int size(); };
         struct takes_one { int size(int); };
         static_assert(!has_size<small>, \"\");
         static_assert(has_size<big>, \"\");
         static_assert(!has_size<const only_mutable>, \"\");
         static_assert(has_size<only_mutable>, \"\");
         static_assert(!has_size<takes_one>, \"\");
         static_assert(has_size<const big>, \"\");",
        expect![[r#"
            true
            true
            true
            true
            true
            true
        "#]],
    );
}

/// A parameter whose type is a non-deduced context (`typename X<D>::type`,
/// or an alias template that is one: `type_identity_t<D>`) deduces nothing
/// from its argument: `D` takes its default (ranges' `views::take(r, n)`,
/// `_Take::operator()<_Range, range_difference_t<_Range>>`). Names from g++ 12.
#[test]
fn a_non_deduced_parameter_leaves_its_template_parameter_to_the_default() {
    check(
        "template<class T> struct type_identity { using type = T; };
         template<class T> using type_identity_t = typename type_identity<T>::type;
         template<class R, class D = long> void take(R r, type_identity_t<D> n) {}
         template<class R, class D = long> void take2(R r, typename type_identity<D>::type n) {}
         void user() { take(1, 2); take2(1, 2); take<int, short>(1, 2); }",
        "user",
        expect![[r#"
            _Z4takeIilEvT_N13type_identityIT0_E4typeE
            _Z5take2IilEvT_N13type_identityIT0_E4typeE
            _Z4takeIisEvT_N13type_identityIT0_E4typeE
        "#]],
    );
}
