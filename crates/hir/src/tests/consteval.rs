//! Constant evaluation: `static_assert`s in their contexts, the constexpr
//! interpreter (calls, loops, locals, class values, folds), its limits and
//! errors as values.

use expect_test::{Expect, expect};

use super::db_with;
use crate::static_asserts::{Context, Outcome, evaluate, unit_asserts};

/// One line per assert of the unit: its context kind and outcome.
fn check(text: &str, want: Expect) {
    check_with(text, false, want)
}

/// `check`, with the asserts of the function template instances the unit
/// requires after the unit's own.
fn check_with(text: &str, fn_instances: bool, want: Expect) {
    let (db, tu) = db_with(text);
    check_in(&db, tu, fn_instances, want)
}

/// `check` with function bodies parsed lazily (as the cudafe++ mode does).
fn check_lazy(text: &str, want: Expect) {
    let db = cufront_base_db::RootDatabase::new();
    let lang = cufront_base_db::LangOptions {
        standard: cufront_base_db::LangStandard::Cxx20,
        lazy_bodies: true,
        ..Default::default()
    };
    let opts = cufront_base_db::new_options(&db, lang);
    let tu = cufront_base_db::new_translation_unit(&db, "t.ii".into(), std::sync::Arc::from(text), opts);
    check_in(&db, tu, false, want)
}

fn check_in(
    db: &cufront_base_db::RootDatabase,
    tu: cufront_base_db::TranslationUnit,
    fn_instances: bool,
    want: Expect,
) {
    let mut out = String::new();
    let mut all = unit_asserts(db, tu).to_vec();
    if fn_instances {
        all.extend(crate::static_asserts::instance_asserts(db, tu).iter().cloned());
    }
    for a in all.iter() {
        let ctx = match &a.context {
            Context::Namespace(_) => "namespace".to_string(),
            Context::Class(_) => "class".to_string(),
            Context::Instance(i) => format!("instance {}", crate::templates::inst_name(db, *i)),
            Context::Function(Some(_), _) => "function".to_string(),
            Context::Function(None, _) => "function?".to_string(),
            Context::FnInstance(fi) => {
                format!("function instance <{}>", crate::templates::display_args(db, fi.args(db)))
            }
            Context::Template => "template".to_string(),
            Context::Unknown => "unknown".to_string(),
        };
        let o = match evaluate(db, tu, a) {
            Outcome::True => "true".to_string(),
            Outcome::False => "FALSE".to_string(),
            Outcome::Dependent => "dependent".to_string(),
            Outcome::Discarded => "discarded".to_string(),
            Outcome::NotEvaluated(e) => format!("error: {e}"),
        };
        out.push_str(&format!("{ctx}: {o}\n"));
    }
    want.assert_eq(&out);
}

#[test]
fn integral_sizeof_traits() {
    check(
        "struct A { int x; char c; };
         struct B : A {};
         enum E { e0, e1 = 5 };
         static_assert(sizeof(A) == 8 && alignof(A) == 4, \"A\");
         static_assert(__is_base_of(A, B) && !__is_base_of(B, A));
         static_assert(__is_same(int, signed int) || false);
         static_assert(e1 == 5 && sizeof(E) == 4);
         static_assert(-7 / 2 == -3 && -7 % 2 == -1 && (unsigned char)300 == 44);
         namespace n { constexpr int k = 3; static_assert(k * 2 == 6); }
         struct C { static constexpr int v = 4; static_assert(v == 4); };",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            class: true
        "#]],
    );
}

#[test]
fn constexpr_calls_loops_recursion() {
    check(
        "constexpr unsigned next_pow2(unsigned v) { v--; v |= v >> 1; v |= v >> 2; v |= v >> 4; v |= v >> 8; v |= v >> 16; return v + 1; }
         static_assert(next_pow2(100) == 128, \"next_pow2\");
         constexpr int ilog2(unsigned v) { return v <= 1 ? 0 : 1 + ilog2(v / 2); }
         static_assert(ilog2(1024) == 10);
         constexpr int sum(int n) { int s = 0; for (int i = 0; i < n; ++i) { if (i % 2) continue; s += i; } return s; }
         static_assert(sum(10) == 20);
         constexpr int w(int n) { int k = 0; while (true) { if (k == n) break; k++; } switch (k) { case 1: return 10; case 3: return 30; default: return -1; } }
         static_assert(w(3) == 30 && w(1) == 10 && w(2) == -1);
         constexpr double half(double x) { return x / 2; }
         static_assert(half(3.0) == 1.5 && 1.0f < 2);",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn class_values_templates_folds() {
    check(
        "template <typename T> class Complex {
           public:
             constexpr Complex(T re, T im) : re_(re), im_(im) {}
             constexpr T real() const { return re_; }
             constexpr T imag() const { return im_; }
           private:
             T re_, im_;
         };
         struct P { int a; int b; constexpr int sum() const { return a + b; } };
         static_assert(P{1, 2}.sum() == 3);
         template <class... Ts> constexpr auto sum_all(Ts... xs) { return (xs + ...); }
         template <class... Ts> constexpr bool all_positive(Ts... xs) { return ((xs > 0) && ...); }
         template <class T> constexpr T twice(T x) { return x + x; }
         template <class T, class... R> struct max_size { static constexpr unsigned long value = sizeof(T) > max_size<R...>::value ? sizeof(T) : max_size<R...>::value; };
         template <class T> struct max_size<T> { static constexpr unsigned long value = sizeof(T); };
         template <class T> struct checked { static_assert(sizeof(T) >= 4, \"small\"); T t; };
         struct H { checked<int> a; checked<double> b; };
         using C = Complex<float>;
         int main() {
             constexpr C i(0.0f, 1.0f);
             static_assert(i.imag() == 1.0f, \"constexpr complex\");
             static_assert(sum_all(1, 2, 3, 4) == 10, \"fold\");
             static_assert(all_positive(1, 2.5, 3L), \"fold &&\");
             static_assert(max_size<char, double, short>::value == sizeof(double), \"max_size\");
             static_assert(twice(21) == 42 && twice(1.5) == 3.0);
             return 0;
         }",
        expect![[r#"
            namespace: true
            template: dependent
            function: true
            function: true
            function: true
            function: true
            function: true
            instance checked<double>: true
            instance checked<int>: true
        "#]],
    );
}

#[test]
fn errors_are_values() {
    check(
        "constexpr int forever(int n) { while (true) { n++; } return n; }
         static_assert(forever(0) == 1);
         constexpr int deep(int n) { return n == 0 ? 0 : 1 + deep(n - 1); }
         static_assert(deep(100) == 100);
         static_assert(deep(300) == 300);
         static_assert(deep(255) == 255);
         static_assert(deep(256) == 256);
         static_assert(1 / 0 == 0);
         static_assert(2147483647 + 1 > 0);
         int runtime(int);
         static_assert(runtime(1) == 1);
         static_assert(undeclared == 1);
         constexpr int uninit() { int x; return x; }
         static_assert(uninit() == 0);",
        expect![[r#"
            namespace: error: expression not folded to a constant due to excessive constexpr function call complexity
            namespace: true
            namespace: error: expression not folded to a constant due to excessive constexpr function call complexity
            namespace: true
            namespace: error: expression not folded to a constant due to excessive constexpr function call complexity
            namespace: error: division by zero
            namespace: error: integer operation result is out of range
            namespace: error: "call to non-constexpr function `runtime`" is not a constant
            namespace: error: identifier "unresolved type `undeclared`" is undefined
            namespace: error: "`x` is not initialized" is not a constant
        "#]],
    );
}

#[test]
fn variable_templates_and_overloads() {
    check(
        "template <class T, class U> struct is_same { static constexpr bool value = false; };
         template <class T> struct is_same<T, T> { static constexpr bool value = true; };
         template <class T, class U> constexpr bool is_same_v = is_same<T, U>::value;
         template <class T> constexpr unsigned long size_v = sizeof(T) * 2;
         static_assert(is_same_v<int, int> && !is_same_v<int, long>);
         static_assert(size_v<short> == 4);
         template <class R> struct dur {
             R r;
             dur() = default;
             template <class R2> constexpr explicit dur(const R2& x) : r(x) {}
             static constexpr dur zero() { return dur(0); }
             static constexpr dur one() { return dur(1); }
             constexpr R count() const { return r; }
         };
         static_assert(dur<long>::zero().count() < dur<long>::one().count());
         template <class T> concept Small = sizeof(T) <= 4;
         template <Small T> constexpr int kind(T) { return 1; }
         template <class T> requires Small<T> && (sizeof(T) == 4) constexpr int kind(T) { return 2; }
         static_assert(kind(1) == 2);",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn calls_resolve_among_constrained_overloads() {
    // g++ 12 accepts all three: a candidate whose constraints are false is
    // not viable (`kind_of(1.0)`); of two satisfied ones the more
    // constrained is called.
    check(
        "template <class T> concept Int = __is_same(T, int) || __is_same(T, long);
         template <class T> concept Float = __is_same(T, float) || __is_same(T, double);
         template <class T> concept Num = Int<T> || Float<T>;
         template <Num T> constexpr int kind_of(T) { return 1; }
         template <class T> requires Num<T> && Int<T> constexpr int kind_of(T) { return 2; }
         static_assert(kind_of(1.0) == 1);
         static_assert(kind_of(1) == 2);
         static_assert(kind_of(2L) == 2);",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn overloaded_operators() {
    check(
        "struct V { int x; constexpr bool operator==(const V& o) const { return x == o.x; } };
         constexpr bool operator<(V a, V b) { return a.x < b.x; }
         static_assert(V{1} < V{2} && !(V{3} < V{2}));
         static_assert(V{4} == V{4});
         namespace c {
           template <class R, class P> struct dur { R r; constexpr R count() const { return r; } };
           template <class R1, class P1, class R2, class P2>
           constexpr bool operator<(const dur<R1, P1>& a, const dur<R2, P2>& b) { return a.count() < b.count(); }
         }
         static_assert(c::dur<long, int>{-5} < c::dur<long, int>{0});",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn local_typedefs_shadow() {
    check(
        "template <class T> struct id { using type = T; };
         typedef char I;
         void f() {
             typedef id<int>::type I;
             using L = long;
             static_assert(sizeof(I) == 4 && sizeof(L) == 8);
         }",
        expect![[r#"
            function: true
        "#]],
    );
}

#[test]
fn special_member_traits() {
    check(
        "struct P { int a; double b; };
         struct N { int a = 1; };
         struct U { U(int); };
         static_assert(__is_constructible(int, int&&) && __is_trivially_constructible(P) && __is_assignable(long&, int) && !__is_assignable(long, int));
         static_assert(!__is_trivially_constructible(N));
         static_assert(__is_constructible(U, int));",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn default_template_argument_calls_constexpr_function() {
    // libcu++'s numeric_limits: the default argument calls a constexpr
    // function template with explicit arguments and `if constexpr`.
    check(
        "enum class K { a, b, c };
         template <class T> constexpr K make() { if constexpr (sizeof(T) == 1) { return K::a; } else if constexpr (sizeof(T) == 4) { return K::b; } else { return K::c; } }
         static_assert(make<int>() == K::b);
         template <class T, K = make<T>()> struct impl { static constexpr int digits = 0; };
         template <class T> struct impl<T, K::b> { static constexpr bool is_signed = T(-1) < T(0); static constexpr int digits = static_cast<int>(sizeof(T) * 8 - is_signed); };
         template <class T> struct lim : impl<T> {};
         static_assert(lim<int>::digits == 31 && lim<unsigned>::digits == 32 && lim<double>::digits == 0);
         constexpr int sq(int x) { return x * x; }
         template <int N = sq(3)> struct A { static constexpr int v = N; };
         static_assert(A<>::v == 9);
         using arr = int[sq(2)];
         static_assert(sizeof(arr) == 16);",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn underlying_type_and_enums_in_alias_declarations() {
    // g++: `enum { -1 }` is int; `using E = enum E {…}` declares both.
    check(
        "template <class A, class B> struct same { static constexpr bool value = false; };
         template <class A> struct same<A, A> { static constexpr bool value = true; };
         enum F { f1 = -1 };
         using E3 = enum E3 { z1 = -1 };
         using E4 = enum E4x { z2 = 1 };
         enum E5 : short { y1 };
         static_assert(sizeof(F) == 4 && sizeof(E3) == 4 && sizeof(z1) == 4);
         static_assert(same<__underlying_type(E3), int>::value && same<__underlying_type(E4), unsigned>::value);
         static_assert(same<__underlying_type(E4x), unsigned>::value && same<__underlying_type(E5), short>::value);
         template <class T> struct ut { using type = __underlying_type(T); };
         static_assert(same<ut<F>::type, int>::value);",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn template_id_parameters_and_local_typedefs() {
    // `duration`'s `operator<` vs `time_point`'s: a template-id parameter
    // takes only a specialization of that template; a constexpr body's
    // typedefs are visible to its expressions.
    check(
        "namespace c {
           template <class R, class P = int> struct dur;
           template <class R, class P> struct dur { R r; constexpr R count() const { return r; } static constexpr dur zero() { return dur(0); } constexpr dur(R x) : r(x) {} };
           template <class C, class D> struct tp { D d; constexpr D since() const { return d; } };
           template <class T> struct id { using type = T; };
           template <class R1, class P1, class R2, class P2>
           constexpr bool operator<(const dur<R1, P1>& a, const dur<R2, P2>& b) { typedef dur<R1, P1> d1; using t = typename id<d1>::type; return t(a).count() < b.count(); }
           template <class C, class D1, class D2>
           constexpr bool operator<(const tp<C, D1>& a, const tp<C, D2>& b) { return a.since() < b.since(); }
           struct clk { typedef dur<long> duration; static_assert(duration(-3) < duration::zero(), \"x\"); };
         }",
        expect![[r#"
            class: true
        "#]],
    );
}

#[test]
fn construct_assign_traits_on_scalars_and_packs() {
    // Checked against g++ 12 (`std::is_constructible` & co.).
    check(
        "enum class S { a }; enum U { u };
         template <class T, class... A> struct ctor { static constexpr bool value = __is_constructible(T, A...); };
         template <class T> struct mv { static constexpr bool value = __is_constructible(T, T&&); };
         static_assert(ctor<int, int&&>::value && ctor<int>::value && ctor<S, const S&>::value && mv<S>::value);
         static_assert(!ctor<int, int*>::value && !ctor<S, int>::value && !ctor<U, int>::value && ctor<int, U>::value && !ctor<int, S>::value);
         static_assert(!ctor<int, int, int>::value && ctor<bool, int*>::value && ctor<int*, decltype(nullptr)>::value);
         static_assert(__is_assignable(int&, long) && !__is_assignable(int, int) && !__is_assignable(const int&, int) && __is_assignable(S&, S));
         static_assert(!__is_assignable(S&, int) && __is_nothrow_constructible(double, int) && __is_trivially_constructible(U, U));",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn pack_expansion_of_traits_and_instance_locals() {
    // libstdc++'s `__find_uniq_type_in_pack`, and a constexpr local of a
    // function template instance read by its `static_assert`.
    check_with(
        "template <class T, class... Ts> constexpr unsigned long find() {
           constexpr unsigned long n = sizeof...(Ts);
           constexpr bool found[n] = { __is_same(T, Ts)... };
           unsigned long k = n;
           for (unsigned long i = 0; i < n; ++i) { if (found[i]) { if (k < n) return n; k = i; } }
           return k;
         }
         static_assert(find<long, int, long>() == 1 && find<int, int, long>() == 0 && find<char, int, long>() == 2);
         template <class T, class... Ts> int get() { constexpr unsigned long i = find<T, Ts...>(); static_assert(i < sizeof...(Ts)); return i; }
         int use() { return get<int, long, int>(); }",
        true,
        expect![[r#"
            namespace: true
            template: dependent
            function instance <int, long, int>: true
        "#]],
    );
}

#[test]
fn declared_and_defined_constrained_partial_specialization() {
    // libstdc++ (C++20) declares `iterator_traits<_Tp*>` before defining it.
    check(
        "template <class T> constexpr bool obj = true;
         template <class T> struct tr { static constexpr int v = 0; };
         template <class T> requires obj<T> struct tr<T*>;
         template <class T> requires obj<T> struct tr<T*> { static constexpr int v = 1; };
         static_assert(tr<int*>::v == 1 && tr<int>::v == 0);",
        expect![[r#"
            namespace: true
        "#]],
    );
}

#[test]
fn implicit_copy_and_move_construction() {
    // `std::default_delete`: user constructors, none of them copy or move.
    check(
        "template <class T> struct del { constexpr del() noexcept = default; template <class U> del(const del<U>&) noexcept {} };
         struct J;
         struct H { del<J> d; int* p; };
         struct C { C(const C&); };
         struct M { M(M&&); };
         static_assert(__is_constructible(del<J>, del<J>&&) && __is_constructible(H, const H&) && __is_nothrow_constructible(H, H&&));
         static_assert(__is_constructible(C, const C&));
         static_assert(!__is_constructible(M, const M&));
         struct K { const int k; };
         static_assert(__is_assignable(del<J>&, del<J>&&) && __is_assignable(H&, const H&) && !__is_assignable(const H&, H));
         static_assert(!__is_assignable(K&, const K&));",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn instance_asserts_reach_members_of_other_classes() {
    // libstdc++'s `counting_semaphore`: the bound is a static member of a
    // non-template class whose initializer goes through traits that name a
    // dependent base's enumerator by a using-declaration.
    check(
        "template <typename T> struct is_int { enum { value = 1 }; };
         template <typename T> struct nonstrict : is_int<T> { using is_int<T>::value; enum { width = value ? sizeof(T) * 8 : 0 }; };
         template <typename V> struct traits { static const int digits = nonstrict<V>::width - 1;
           static const V max = ((((V)1 << (digits - 1)) - 1) << 1) + 1; };
         template <typename V> const V traits<V>::max;
         struct sem { static constexpr long S_max = traits<int>::max; };
         template <long least = sem::S_max> class counting { static_assert(least <= sem::S_max); };
         struct user { counting<1> c; };
         static_assert(sem::S_max == 2147483647);",
        expect![[r#"
            template: dependent
            namespace: true
            instance counting<1>: true
        "#]],
    );
}

#[test]
fn explicit_destructor_calls_in_decltype() {
    // libstdc++'s `__is_destructible_impl`: SFINAE on `declval<T&>().~T()`.
    check(
        "template <class T> T&& declval() noexcept;
         struct V { ~V(); };
         template <class T> struct W { ~W(); };
         template <class T, class = decltype(declval<T&>().~T())> char test(int);
         template <class> long test(...);
         static_assert(sizeof(decltype(test<V>(0))) == 1 && sizeof(decltype(test<W<int>>(0))) == 1 && sizeof(decltype(test<int>(0))) == 1);
         static_assert(sizeof(decltype(declval<W<int>*>()->~W())*) == sizeof(void*));",
        expect![[r#"
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn signed_shift_into_the_sign_bit_is_a_constant() {
    // C++17 [expr.shift]/2 (CWG 1457): `1 << 31` is representable in
    // `unsigned`, so it is `INT_MIN` (libcu++'s `__int_min<int, 31, true>`
    // behind `numeric_limits<int>::max()`); `3 << 31` is not.
    check(
        "constexpr int m = 1 << 31;
         static_assert(m < 0 && (int(~0) ^ m) == 2147483647);
         static_assert((3 << 31) != 0);",
        expect![[r#"
            namespace: true
            namespace: error: integer operation result is out of range
        "#]],
    );
}

#[test]
fn substitution_failure_in_a_short_circuited_operand() {
    // [temp.deduct.general]/7: substitution goes into every operand, also
    // the one `||`/`&&` does not evaluate; an invalid `decltype` or
    // `typename T::x` there removes the partial specialization (thrust's
    // `has_member_destroy_impl_has_member`). Checked against g++ 12.
    check(
        "template <bool B, class T = void> struct enable_if {};
         template <class T> struct enable_if<true, T> { typedef T type; };
         template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
         template <class T, T v> struct integral_constant { static constexpr T value = v; };
         typedef integral_constant<bool, true> true_type;
         typedef integral_constant<bool, false> false_type;
         template <class A, class B> struct is_same : false_type {};
         template <class A> struct is_same<A, A> : true_type {};
         template <class T> T&& declval();
         template <class T, class Sig, class = void> struct has_destroy : false_type {};
         template <class T, class R, class A>
         struct has_destroy<T, R(A), enable_if_t<is_same<R, void>::value || is_same<R, decltype(declval<T>().destroy(declval<A>()))>::value>> : true_type {};
         struct with { void destroy(int*); };
         struct without {};
         template <class T, class = void> struct has_size : false_type {};
         template <class T> struct has_size<T, enable_if_t<sizeof(T) != 0 && (true || sizeof(typename T::size_type) != 0)>> : true_type {};
         struct sz { using size_type = int; };
         static_assert(has_destroy<with, void(int*)>::value, \"\");
         static_assert(!has_destroy<without, void(int*)>::value, \"\");
         static_assert(has_size<sz>::value, \"\");
         static_assert(!has_size<int>::value, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn block_scope_decltype_alias_of_an_expression() {
    // libstdc++'s `uninitialized_copy`: `using _From = decltype(*__first);`
    // passed on as a template argument to a constexpr check.
    check_with(
        "template <class V, class T> constexpr bool check() { static_assert(__is_constructible(V, T), \"c\"); return true; }
         template <class It> int copy(It first) { using From = decltype(*first); typedef decltype(first + 1) Next;
           const bool ok = check<int, From>() && check<It, Next>(); return ok; }
         int user() { int a[2] = {}; return copy(a); }",
        true,
        expect![[r#"
            template: dependent
            function instance <int, int&>: true
            function instance <int*, int*>: true
        "#]],
    );
}

#[test]
fn decltype_as_a_nested_name_specifier() {
    // libcu++'s `__is_destructor_wellformed`: `decltype(__test<_Tp>(12))::value`.
    check(
        "template <class T> T&& declval() noexcept;
         struct tt { static const bool value = true; }; struct ff { static const bool value = false; };
         template <class> struct apply { typedef int type; };
         struct wf { template <class T1> static tt test(typename apply<decltype(declval<T1&>().~T1())>::type);
                     template <class T1> static ff test(...); };
         template <class T> struct is_d { static const bool value = decltype(wf::test<T>(12))::value; };
         struct V { ~V(); };
         static_assert(is_d<int>::value && is_d<V>::value && is_d<float*>::value);",
        expect![[r#"
            namespace: true
        "#]],
    );
}

#[test]
fn is_constructible_by_constructor_overload_resolution() {
    // Checked against g++ 12: declared constructors decide by overload
    // resolution; a deleted winner, a declared move constructor (the
    // implicit copy is deleted) and a member that cannot be copied make it
    // false; constrained converting constructors (pair's) are SFINAE'd.
    let src = r#"
        template <bool B, class T = void> struct enable_if {};
        template <class T> struct enable_if<true, T> { typedef T type; };
        struct U { U(int); };
        struct Up { Up(); Up(const Up&) = delete; Up(Up&&) noexcept; };
        struct HasUp { Up p; int x; HasUp(int); };
        struct Mv { Mv(int); Mv(Mv&&); };
        struct Str { Str(const char*); Str(const Str&); ~Str(); };
        template <class A, class B> struct Pr {
          A first; B second;
          Pr(const A& a, const B& b);
          template <class X, class Y, typename enable_if<__is_constructible(A, const X&) && __is_constructible(B, const Y&), int>::type = 0>
          Pr(const Pr<X, Y>& o);
        };
        struct Tag { Tag(U) = delete; Tag(long); };
        static_assert(__is_constructible(U, int) && !__is_constructible(U, const char*) && !__is_constructible(U));
        static_assert(!__is_constructible(Up, const Up&) && __is_constructible(Up, Up&&) && __is_constructible(Up));
        static_assert(!__is_constructible(HasUp, const HasUp&) && __is_constructible(HasUp, HasUp&&) && __is_constructible(HasUp, int));
        static_assert(!__is_constructible(Mv, Mv&) && __is_constructible(Mv, Mv));
        static_assert(__is_constructible(Str, const Str&) && __is_constructible(Str, Str&&) && __is_constructible(Str, const char*));
        static_assert(__is_constructible(Pr<Str, int>, const Pr<const Str, int>&) && !__is_constructible(Pr<Up, int>, const Pr<Up, int>&));
        static_assert(!__is_constructible(Tag, U) && __is_constructible(Tag, int));
        struct Agg { Str s; double v; };
        struct AggUp { Up u; };
        struct AggUpDtor { Up u; ~AggUpDtor(); };
        static_assert(__is_constructible(Agg, const Agg&) && __is_constructible(Agg, Agg&&) && !__is_constructible(AggUp, AggUp&));
        static_assert(__is_constructible(AggUp, AggUp&&) && !__is_constructible(AggUpDtor, AggUpDtor&&));
    "#;
    check(
        src,
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn closure_types_are_copy_and_move_constructible() {
    // `std::function`'s constructor asserts `is_copy_constructible` of the
    // closure type it is given (true for g++ 12: a lambda capturing a copyable value).
    check_with(
        "template <class T> struct is_cc { static constexpr bool value = __is_constructible(T, const T&) && __is_constructible(T, T&&); };
         template <class F> void take(F f) { static_assert(is_cc<F>::value); }
         void user() { int k = 2; take([k](float v) { return k * v; }); }",
        true,
        expect![[r#"
            template: dependent
            function instance <{lambda #5}>: true
        "#]],
    );
}

#[test]
fn triviality_traits_follow_gcc() {
    // Checked with g++ 12: a special member is trivial unless it is
    // user-provided (deleted ones count as trivial); access, converting
    // constructors and assignments from other types do not matter.
    check(
        "struct Raw { unsigned short x; };
         struct H { protected: unsigned short x; public: H() = default; H(const Raw& r) : x(r.x) {} H& operator=(const Raw& r) { x = r.x; return *this; } };
         struct UserDefault { UserDefault() {} int a; };
         struct Init { int a = 1; };
         struct CopyUser { CopyUser(const CopyUser&) {} int a; };
         struct DefaultedCopy { DefaultedCopy() = default; DefaultedCopy(const DefaultedCopy&) = default; int a; };
         struct Virt { virtual void f(); };
         struct VDtor { virtual ~VDtor() = default; };
         struct Dtor { ~Dtor() {} };
         struct HasDtorMember { Dtor d; };
         struct Ref { int& r; };
         struct OnlyCtor { OnlyCtor(int); int a; };
         struct Arr { H h[4]; };
         struct Derived : H { int y; };
         struct MoveOnly { MoveOnly() = default; MoveOnly(MoveOnly&&) = default; };
         struct NoCopy { NoCopy(const NoCopy&) = delete; NoCopy& operator=(const NoCopy&) = delete; };
         template <class T> struct W { T v; W() = default; W(const W&) = default; };
         static_assert(__is_trivial(H) && __is_trivially_copyable(H) && __is_pod(H));
         static_assert(!__is_trivial(UserDefault) && __is_trivially_copyable(UserDefault));
         static_assert(!__is_trivial(Init) && __is_trivially_copyable(Init));
         static_assert(!__is_trivially_copyable(CopyUser) && __has_trivial_destructor(CopyUser));
         static_assert(__is_trivial(DefaultedCopy) && __is_pod(DefaultedCopy));
         static_assert(!__is_trivially_copyable(Virt) && __has_trivial_destructor(Virt));
         static_assert(!__is_trivially_copyable(VDtor) && !__has_trivial_destructor(VDtor));
         static_assert(!__is_trivially_copyable(Dtor) && !__has_trivial_destructor(HasDtorMember) && !__is_trivially_copyable(HasDtorMember));
         static_assert(__is_trivial(Ref) && __is_trivially_copyable(Ref));
         static_assert(!__is_trivial(OnlyCtor) && __is_trivially_copyable(OnlyCtor));
         static_assert(__is_trivial(Arr) && __is_trivial(H[3]) && !__is_trivial(Dtor[2]));
         static_assert(__is_trivial(Derived) && !__is_pod(Derived));
         static_assert(__is_trivial(MoveOnly) && __is_trivially_copyable(MoveOnly));
         static_assert(__is_trivially_copyable(NoCopy));
         static_assert(__is_trivial(W<int>) && !__is_trivially_copyable(W<Dtor>));
         struct DelDef { DelDef() = delete; int a; };
         struct DelDtor { ~DelDtor() = delete; };
         struct RefD : Ref {};
         struct CM { const int c; };
         static_assert(__is_trivial(DelDef));
         static_assert(__is_trivially_copyable(DelDtor));
         static_assert(__has_trivial_destructor(DelDtor));
         static_assert(__is_trivial(RefD));
         static_assert(__is_trivial(CM));
         static_assert(__is_assignable(H&, const H&) && __is_assignable(H&, H&&));",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn noexcept_of_a_construction_from_declval() {
    // libcu++'s `is_nothrow_constructible` is `noexcept(T(declval<A>()...))`
    // (the pack expanded with the instance's arguments): the builtin trait's
    // question. g++ accepts every assert below.
    check(
        r#"
template <class T> T&& declval() noexcept;
template <bool B> struct bool_c { static constexpr bool value = B; };
template <class T, class... A> struct nothrow_ctor : bool_c<noexcept(T(declval<A>()...))> {};
struct agg { int a; int b; };
struct throwing { throwing(int); };
struct quiet { quiet(int) noexcept; };
static_assert(nothrow_ctor<agg, agg&&>::value, "");
static_assert(nothrow_ctor<int, long>::value, "");
static_assert(!nothrow_ctor<throwing, int>::value, "");
static_assert(nothrow_ctor<quiet, int>::value, "");
static_assert(noexcept(agg(declval<const agg&>())), "");
"#,
        expect![[r#"
            namespace: true
            namespace: true
            namespace: error: identifier "no member `value` in nothrow_ctor<throwing, int>" is undefined
            namespace: error: identifier "no member `value` in nothrow_ctor<quiet, int>" is undefined
            namespace: true
        "#]],
    );
}

#[test]
fn members_of_dependent_and_non_dependent_bases() {
    // libstdc++'s `__is_integer_nonstrict<T> : __is_integer<T>` names
    // `__value` through a using-declaration (the base is dependent and not
    // searched); a non-dependent base (`tag_base<long>`) is searched by
    // unqualified lookup. g++ accepts every assert below.
    check(
        r#"
template <class T> struct is_int { enum { value = 0 }; };
template <> struct is_int<int> { enum { value = 1 }; };
template <class T> struct nonstrict : is_int<T> {
  using is_int<T>::value;
  enum { width = value ? sizeof(T) * 8 : 0 };
};
template <class T> struct tag_base { enum { value = 7 }; };
template <class T> struct other : tag_base<long> {
  enum { w = value + 1 };
};
static_assert(nonstrict<int>::width == 32, "");
static_assert(nonstrict<float>::width == 0, "");
static_assert(other<int>::w == 8, "");
"#,
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn captureless_closure_is_an_empty_class() {
    // `reference_wrapper<L>::operator()`'s `static_assert(sizeof(type), …)`
    // with `L` a captureless lambda's closure type: size 1.
    check_with(
        "template <class F> int call(F f) { static_assert(sizeof(F) == 1, \"empty\"); return f(1); }\n\
         int user() { return call([](int v) { return v; }); }",
        true,
        expect![[r#"
            template: dependent
            function instance <{lambda #2}>: true
        "#]],
    );
}

#[test]
fn definition_matches_the_declarations_template_head() {
    // libstdc++'s variant: `get<size_t>` is declared, then `get<typename>`
    // is defined with the same function parameters before `get<size_t>`'s
    // own definition. An instance of the index overload reads the index
    // overload's asserts (its definition is not the type overload's).
    check_with(
        "template <class A, class B> constexpr bool is_same_v = __is_same(A, B);
         template <typename T, typename... Ts> constexpr unsigned long find_uniq() {
           constexpr unsigned long n = sizeof...(Ts);
           constexpr bool found[n] = { is_same_v<T, Ts>... };
           unsigned long k = n;
           for (unsigned long i = 0; i < n; ++i) { if (found[i]) { if (k < n) return n; k = i; } }
           return k;
         }
         namespace d { template <typename T, typename... Ts> inline constexpr bool once = find_uniq<T, Ts...>() < sizeof...(Ts); }
         template <typename... Ts> struct V { int i; };
         template <unsigned long N, typename... Ts> int& get(V<Ts...>&);
         template <typename T, typename... Ts> T& get(V<Ts...>& v) {
           static_assert(d::once<T, Ts...>, \"T must occur exactly once\");
           constexpr unsigned long n = find_uniq<T, Ts...>();
           return get<n>(v);
         }
         template <unsigned long N, typename... Ts> int& get(V<Ts...>& v) {
           static_assert(N < sizeof...(Ts), \"index\");
           return v.i;
         }
         int use(V<int, double, bool>& v) { return get<int>(v) + get<2>(v); }",
        true,
        expect![[r#"
            template: dependent
            template: dependent
            function instance <int, int, double, bool>: true
            function instance <2, int, double, bool>: true
            function instance <0, int, double, bool>: true
        "#]],
    );
}

#[test]
fn noexcept_of_a_call_to_a_conditionally_noexcept_member() {
    // libstdc++'s `_Hashtable::~_Hashtable` asserts that `_M_bucket_index`,
    // `noexcept(noexcept(declval<const _Hash&>()(k)))` in `_Hash_code_base`
    // and named through an access-declaration of a local class, is
    // non-throwing: the callee's condition is evaluated in its instance's
    // environment. g++ accepts every assert below.
    check_with(
        r#"
template <class T> T&& declval() noexcept;
struct quiet_hash { unsigned long operator()(int) const noexcept; };
struct loud_hash { unsigned long operator()(int) const; };
template <class H> struct base {
  unsigned long index(const int&, unsigned long) const noexcept(noexcept(declval<const H&>()(0)));
  unsigned long plain(unsigned long) const noexcept(true);
};
template <class H> struct table {
  struct access : base<H> { using base<H>::index; };
  ~table() noexcept {
    static_assert(noexcept(declval<const access&>().index(declval<const int&>(), (unsigned long)0)), "");
  }
};
void use() { table<quiet_hash> t; }
static_assert(noexcept(declval<const base<quiet_hash>&>().index(0, 0)), "");
static_assert(!noexcept(declval<const base<loud_hash>&>().index(0, 0)), "");
static_assert(noexcept(declval<const table<quiet_hash>::access&>().index(0, 0)), "");
"#,
        true,
        expect![[r#"
            template: dependent
            namespace: true
            namespace: true
            namespace: true
            function instance <>: true
        "#]],
    );
}

#[test]
fn alignof_of_a_qualified_data_member() {
    // libstdc++'s `__aligned_membuf<_Tp>` aligns its storage with
    // `alignas(__alignof__(_Tp2::_M_t))`, `_Tp2` a local struct holding a
    // `_Tp`: the operand names a non-static data member (no value), its
    // type's alignment decides. g++ accepts every assert below.
    check(
        r#"
template <class T> struct membuf {
  struct T2 { T m; };
  alignas(__alignof__(T2::m)) unsigned char storage[sizeof(T)];
};
template <class T> struct attr_buf {
  struct T2 { T m; };
  __attribute__((__aligned__(__alignof__(T2::m)))) unsigned char storage[sizeof(T)];
};
struct S { double d; char c; };
struct P { short a; char b; };
static_assert(alignof(membuf<S>) == 8 && sizeof(membuf<S>) == 16, "");
static_assert(alignof(membuf<char>) == 1, "");
static_assert(alignof(attr_buf<P>) == 2 && sizeof(attr_buf<P>) == 4, "");
static_assert(sizeof(S::d) == 8 && alignof(P) == __alignof__(P::a), "");
"#,
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn calls_deduce_through_alias_templates_and_packs() {
    // libstdc++'s `__check_visitor_results<_Visitor, _Vp>(make_index_sequence<N>())`:
    // `Is...` deduced through the alias `index_sequence`, with some
    // arguments explicit; a variable template's first parameter bound to
    // the first element of an expansion.
    check(
        "template<class T, T... I> struct iseq {};
         template<unsigned long... I> using idx = iseq<unsigned long, I...>;
         template<unsigned long... I> constexpr unsigned long count(idx<I...>) { return sizeof...(I); }
         template<class V, unsigned long... I> constexpr unsigned long count_v(idx<I...>) { return sizeof...(I) + sizeof(V); }
         static_assert(count(idx<0, 1, 2>()) == 3);
         static_assert(count_v<int>(idx<0, 1>()) == 6);
         template<class A, class B> struct same { static constexpr bool value = false; };
         template<class A> struct same<A, A> { static constexpr bool value = true; };
         template<class T, class... Ts> constexpr bool all_same = (same<T, Ts>::value && ...);
         template<unsigned long N> struct at { using type = int; };
         template<> struct at<3> { using type = long; };
         template<unsigned long... I> constexpr bool uniform(idx<I...>) { return all_same<typename at<I>::type...>; }
         static_assert(uniform(idx<0, 1, 2>()));
         static_assert(!uniform(idx<0, 3>()));",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn asserts_in_discarded_if_constexpr_branches_are_not_instantiated() {
    // [stmt.if]/2: in an instance, the discarded substatement is not
    // instantiated (`__visit_rettypes_match` in std::visit); outside a
    // template both are checked.
    check_with(
        "template<class T> constexpr bool always_false = false;
         template<class T> int f(T) {
             constexpr bool four = sizeof(T) == 4;
             if constexpr (four) {
                 static_assert(sizeof(T) == 4);
                 return 1;
             } else {
                 static_assert(sizeof(T) != 4);
                 if constexpr (four) { static_assert(always_false<T>, \"unsupported\"); }
                 return 0;
             }
         }
         void g() {
             if constexpr (sizeof(int) == 4) { static_assert(sizeof(int) == 4); }
             else { static_assert(sizeof(char) == 1); }
         }
         int use() { return f(1) + f(1.0); }",
        true,
        expect![[r#"
            template: dependent
            template: dependent
            template: dependent
            function: true
            function: true
            function instance <int>: true
            function instance <int>: discarded
            function instance <int>: discarded
            function instance <double>: discarded
            function instance <double>: true
            function instance <double>: discarded
        "#]],
    );
}

/// Overloads the interpreter's ranking by argument kinds cannot tell
/// apart are picked by the full overload resolution of the call
/// (`infer::call_target`): reference binding (`get(tuple<T...> const&)` /
/// `&` / `&&`, CuTe's) and partial ordering with SFINAE (CuTe's variadic
/// `min` against the binary one).
#[test]
fn tied_overloads_by_full_resolution() {
    check(
        "template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { using type = T; };\n\
         template <class T> struct is_arith { static constexpr bool value = true; };\n\
         template <class T, class U, typename enable_if<is_arith<T>::value && is_arith<U>::value, int>::type = 0>\n\
         constexpr auto min(T const& t, U const& u) { return t < u ? t : u; }\n\
         template <class T0, class... Ts> constexpr auto min(T0 const& t0, Ts const&... ts) {\n\
           if constexpr (sizeof...(Ts) == 0) { return t0; } else { return ::min(t0, ::min(ts...)); }\n\
         }\n\
         static_assert(min(3, 4) == 3, \"\");\n\
         static_assert(min(3, 4, 2) == 2, \"\");\n\
         static_assert(min(5) == 5, \"\");\n\
         template <class... T> struct tuple { };\n\
         template <int I, class... T> constexpr int get(tuple<T...> const&) { return 1; }\n\
         template <int I, class... T> constexpr int get(tuple<T...>&) { return 2; }\n\
         template <int I, class... T> constexpr int get(tuple<T...>&&) { return 3; }\n\
         template <int... Is, class X> constexpr int size(X const& a) { if constexpr (sizeof...(Is) == 0) { return 0; } else { return get<Is...>(a); } }\n\
         static_assert(size<0>(tuple<int>{}) == 1, \"\");\n\
         static_assert(get<0>(tuple<int>{}) == 3, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// A pointer template parameter defaulted to `nullptr` (CuTe's
/// `__CUTE_REQUIRES(c)`: `typename enable_if<c>::type* = nullptr`) takes
/// the null pointer value: the candidate stays viable, so the binary `min`
/// wins by partial ordering (the call's evaluation and the instance g++
/// emits, `_Z3minIiiLPv0EEDaRKT_RKT0_`).
#[test]
fn null_pointer_default_template_argument() {
    let text = "template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { using type = T; };\n\
         template <class T> struct is_arith { static constexpr bool value = true; };\n\
         template <class T, class U, typename enable_if<(is_arith<T>::value && is_arith<U>::value)>::type* = nullptr>\n\
         constexpr auto min(T const& t, U const& u) { return t < u ? t : u; }\n\
         template <class T0, class... Ts> constexpr auto min(T0 const& t0, Ts const&... ts) {\n\
           if constexpr (sizeof...(Ts) == 0) { return t0; } else { return ::min(t0, ::min(ts...)); }\n\
         }\n";
    check(
        &format!("{text}static_assert(min(3, 4) == 3, \"\");\nstatic_assert(min(3, 4, 2) == 2, \"\");"),
        expect![[r#"
            namespace: true
            namespace: true
        "#]],
    );
    super::closure(
        &format!("{text}int f() {{ return min(3, 4); }}"),
        expect![[r#"
        _Z1fv
        _Z3minIiiLPv0EEDaRKT_RKT0_
    "#]],
    );
}

/// A template parameter pack that no function parameter deduces and no
/// explicit argument gives is empty in a call the interpreter deduces by
/// position (CuTe's `size<int... Is>(a)` recursing as `size(get<Is...>(a))`
/// on an object whose type the full deduction does not take).
#[test]
fn undeduced_trailing_pack_is_empty() {
    check(
        "template <int v> struct C { static constexpr int value = v; constexpr operator int() const { return v; } };\n\
         template <class... T> struct tuple { };\n\
         template <int I, class... T> constexpr C<5> get(tuple<T...> const&) { return {}; }\n\
         template <class X> constexpr int product(X const& a) { return 7; }\n\
         template <int... Is, class X> constexpr auto size(X const& a) { if constexpr (sizeof...(Is) == 0) { return product(a); } else { return size(get<Is...>(a)); } }\n\
         static_assert(size<0>(tuple<int>{}) == 7, \"\");\n\
         static_assert(size(1) == 7, \"\");\n\
         static_assert(size(C<3>{}) == 7, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// Calls through class objects: a constexpr function object without an
/// initializer (CuTe's `static constexpr Product product;`, default
/// initialized) and a function object parameter, by their `operator()`.
#[test]
fn calls_through_function_objects() {
    check(
        "struct Product { template <class T> constexpr T operator()(T const& a) const { return a * 2; } };\n\
         static constexpr Product product;\n\
         template <class F> constexpr int apply(F f, int x) { return f(x) + 1; }\n\
         static_assert(product(3) == 6, \"\");\n\
         static_assert(apply(product, 4) == 9, \"\");\n\
         static_assert(apply(Product{}, 5) == 11, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// A function returning a class by `return {…};` (or a scalar its class
/// converts from) returns an object of that class: CuTe's `getv_cr`
/// returns an empty `C<N>` as `return {};`, so `get<0>(Shape{}) == 128`
/// converts it by its `operator int`, and a call taking the result deduces
/// its type (`product`'s `is_tuple<X>`). Each assert holds with g++.
#[test]
fn braced_return_of_a_class_type() {
    check(
        "template <bool B> struct bool_constant { static constexpr bool value = B; };\n\
         template <int v> struct C { static constexpr int value = v; constexpr operator int() const { return v; } };\n\
         template <class... T> struct tuple { };\n\
         template <class T> struct is_tuple : bool_constant<false> {};\n\
         template <class... T> struct is_tuple<tuple<T...>> : bool_constant<true> {};\n\
         template <int I, class... T> constexpr C<128> get(tuple<T...> const&) { return {}; }\n\
         template <class X> constexpr int product(X const& a) { if constexpr (is_tuple<X>::value) { return 0; } else { return a; } }\n\
         struct P { int a, b; };\n\
         constexpr P mk() { return {1, 2}; }\n\
         struct W { int v; constexpr W(int x) : v(x * 2) {} };\n\
         constexpr W w() { return 4; }\n\
         static_assert(get<0>(tuple<C<128>>{}) == 128, \"\");\n\
         static_assert(product(get<0>(tuple<C<128>>{})) == 128, \"\");\n\
         static_assert(mk().b == 2, \"\");\n\
         static_assert(w().v == 8, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// A function template's trailing default arguments make it viable with
/// fewer arguments (CUTLASS's `is_major<1, Stride>()` for `template <int
/// M, class S> bool is_major(S = {})`), and a scalar parameter takes `{}`.
/// Each assert holds with g++.
#[test]
fn function_template_default_arguments() {
    check(
        "template <int M, class S> constexpr bool is_major(S = {}) { return M == 1; }\n\
         template <class S> constexpr bool is_k() { return is_major<1, S>(); }\n\
         struct P { int a; };\n\
         namespace d { template <int M, class S> constexpr bool is_major(S = {}) { return M == 1; } }\n\
         namespace e { template <int M, class S> constexpr bool is_major(S = {}) { return ::d::is_major<M>(S{}); } }\n\
         static_assert(is_major<1, int>(), \"\");\n\
         static_assert(is_k<int>(), \"\");\n\
         static_assert(is_major<1, P>(), \"\");\n\
         static_assert(e::is_major<1, P>(), \"\");\n\
         static_assert(!is_major<0, P>(P{}), \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// `decltype` of a call of a function with a deduced return type, in the
/// body of a function template the interpreter runs (CUTLASS's
/// `is_constant<1, decltype(front(get<M>(S{})))>::value`). Each assert
/// holds with g++.
#[test]
fn decltype_of_deduced_return_calls_in_template_bodies() {
    check(
        "template <int v> struct C { static constexpr int value = v; };\n\
         template <class T> constexpr decltype(auto) fr(T&& t) { return static_cast<T&&>(t); }\n\
         template <class T> constexpr auto fa(T const& t) { return t; }\n\
         template <class T> constexpr T fp(T const& t) { return t; }\n\
         template <class S> constexpr bool p1() { return __is_same(decltype(fa(S{})), C<1>); }\n\
         template <class S> constexpr bool p2() { return __is_same(decltype(fr(S{})), C<1>&&); }\n\
         template <class S> constexpr bool p3() { return __is_same(decltype(fp(S{})), C<1>); }\n\
         static_assert(p1<C<1>>(), \"\");\n\
         static_assert(p2<C<1>>(), \"\");\n\
         static_assert(p3<C<1>>(), \"\");\n\
         static_assert(__is_same(decltype(fa(C<1>{})), C<1>), \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// A class whose default constructor is defaulted (`X() = default;`, so
/// constexpr when it can be) beside a user-provided one is
/// value-initialized by `X{}` in a constant expression (CUTLASS's
/// `StageCountAutoCarveout<N>{}`, whose other constructor is
/// `explicit X(Int<N>)`). Each assert holds with g++.
#[test]
fn defaulted_default_constructor_beside_a_user_one() {
    check(
        "template <int N> struct Carveout { static constexpr int bytes = N; Carveout() = default; explicit Carveout(int) {} };\n\
         template <int C, int N> constexpr int stages(Carveout<N>) { return C / (N + 1); }\n\
         static_assert(stages<100, 4>(Carveout<4>{}) == 20, \"\");\n\
         struct D { int x = 3; D() = default; D(int, int) {} };\n\
         static_assert(D{}.x == 3, \"\");\n\
         struct A { int x = 3; };\n\
         static_assert(A{}.x == 3, \"\");",
        expect![[r#"
            namespace: true
            namespace: error: not evaluated: default member initializer
            namespace: error: not evaluated: default member initializer
        "#]],
    );
}

/// A call in a template argument of a type named in a function body
/// (CuTe's `signum(C<t>)`, `return C<signum(t)>{};`) is evaluated: the
/// item tree keeps it as text, found again in the body (parsed eagerly or
/// lazily). Each assert holds with g++.
#[test]
fn calls_in_template_arguments_inside_bodies() {
    let text = "template <auto v> struct C { static constexpr auto value = v; };\n\
         template <class A, class B> struct same { static constexpr bool value = false; };\n\
         template <class A> struct same<A, A> { static constexpr bool value = true; };\n\
         template <class T> constexpr int signum(T const& x) { return (T(0) < x) - (x < T(0)); }\n\
         template <auto t> constexpr auto signum(C<t>) { return C<signum(t)>{}; }\n\
         constexpr int g(int x) { return x + 1; }\n\
         constexpr auto n() { return C<g(1)>{}; }\n\
         template <int t> constexpr auto local() { C<g(t)> c{}; return c; }\n\
         template <int t> constexpr auto alias() { using R = C<(g(t) * 2)>; return R{}; }\n\
         static_assert(same<decltype(signum(C<-5>{})), C<-1>>::value, \"\");\n\
         static_assert(same<decltype(n()), C<2>>::value, \"\");\n\
         static_assert(same<decltype(local<3>()), C<4>>::value, \"\");\n\
         static_assert(same<decltype(alias<3>()), C<8>>::value, \"\");";
    check(
        text,
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
    check_lazy(
        text,
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// A function parameter pack whose pattern names several template
/// parameter packs (`L<Ss, Ds> const&...`, CuTe's variadic `make_layout`)
/// deduces one element of each per argument. Each assert holds with g++.
#[test]
fn function_parameter_pack_deduces_every_pack_of_its_pattern() {
    check(
        "template <class A, class B> struct same { static constexpr bool value = false; };\n\
         template <class A> struct same<A, A> { static constexpr bool value = true; };\n\
         template <class... T> struct tuple {};\n\
         template <class S, class D> struct L {};\n\
         template <class... Ss, class... Ds> constexpr auto f1(L<Ss, Ds> const&...) { return tuple<Ds...>{}; }\n\
         template <class X, class... Ss, class... Ds> constexpr auto f2(X const&, L<Ss, Ds> const&...) { return tuple<Ss...>{}; }\n\
         template <class... Ss, class... Ds> constexpr int f3(L<Ss, Ds> const&...) { return sizeof...(Ds) * 10 + sizeof...(Ss); }\n\
         static_assert(same<decltype(f1(L<int, char>{}, L<long, short>{})), tuple<char, short>>::value, \"\");\n\
         static_assert(same<decltype(f2(1, L<int, char>{})), tuple<int>>::value, \"\");\n\
         static_assert(f3(L<int, char>{}, L<long, short>{}) == 22, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

/// `decltype` of an expression naming the body's parameters or locals,
/// written in an expression's type (`decltype(rank(t))::value`,
/// `decltype(rank(t)){}`, a template argument of a functional cast): typed
/// by the body's inference (CuTe's `transform_layout` reads `constexpr int
/// R0 = decltype(rank(t0))::value;`). Each assert holds with g++.
#[test]
fn decltype_of_locals_in_expression_types() {
    check(
        "template <class A, class B> struct same { static constexpr bool value = false; };\n\
         template <class A> struct same<A, A> { static constexpr bool value = true; };\n\
         template <int v> struct C { static constexpr int value = v; };\n\
         template <class... T> struct tuple {};\n\
         template <class... T> constexpr C<sizeof...(T)> rank(tuple<T...> const&) { return {}; }\n\
         template <class T> constexpr auto e1(T const& t) { constexpr int R0 = decltype(rank(t))::value; return C<R0 * 10>{}; }\n\
         template <class T> constexpr auto e2(T const& t) { return decltype(rank(t)){}; }\n\
         template <class T> constexpr auto e3(T const& t) { return C<decltype(rank(t))::value + 1>{}; }\n\
         constexpr auto n1() { tuple<int, int, int> t; return C<decltype(rank(t))::value>{}; }\n\
         static_assert(same<decltype(e1(tuple<int, int>{})), C<20>>::value, \"\");\n\
         static_assert(same<decltype(e2(tuple<int, int>{})), C<2>>::value, \"\");\n\
         static_assert(same<decltype(e3(tuple<int>{})), C<2>>::value, \"\");\n\
         static_assert(same<decltype(n1()), C<3>>::value, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn decltype_of_a_named_variable_and_block_scope_decltype_aliases() {
    // `decltype` of an unparenthesized variable name is its declared type,
    // no reference added ([dcl.type.decltype]/1.3): libcu++'s
    // `__copy_cvref_t` goes through `decltype(__apply_cvref<_Tp>)`, a
    // variable template whose partial specializations have other types.
    check(
        "template <class A, class B> struct is_same { static constexpr bool value = false; };\n\
         template <class A> struct is_same<A, A> { static constexpr bool value = true; };\n\
         struct P { template <class T> using call = T; };\n\
         struct L { template <class T> using call = T&; };\n\
         template <class> extern P ap;\n\
         template <class T> extern L ap<T&>;\n\
         template <class T> using fn = decltype(ap<T>);\n\
         template <class F, class T> using copy_t = typename fn<F>::template call<T>;\n\
         static_assert(is_same<copy_t<int, unsigned>, unsigned>::value, \"a\");\n\
         static_assert(is_same<copy_t<int&, unsigned>, unsigned&>::value, \"b\");\n\
         struct S { static int x; static int& r; };\n\
         static_assert(is_same<decltype(S::x), int>::value, \"c\");\n\
         static_assert(is_same<decltype(S::r), int&>::value, \"d\");\n\
         static_assert(!is_same<decltype(S::x), int&>::value, \"e\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
    // A constexpr function's `using P = decltype(…);` in its body, then
    // `is_signed_v<P>` (libcu++'s `ceil_div`): the operand is typed with
    // the function's arguments.
    check(
        "namespace s { template<class T> inline constexpr bool is_signed_v = T(-1) < T(0); }\n\
         template <class T, class U> constexpr int c1(T a, U b) {\n\
           using P = T;\n\
           if constexpr (s::is_signed_v<P>) { return (a + b - 1) / b; } else { return a; }\n\
         }\n\
         template <class T, class U> constexpr int c2(T a, U b) {\n\
           using P = decltype(a / b);\n\
           if constexpr (s::is_signed_v<P>) { return (a + b - 1) / b; } else { return a; }\n\
         }\n\
         template <class T, class U> constexpr int c3(T a, U b) {\n\
           using P = decltype(T{} / U{});\n\
           P x = a;\n\
           return (x + b - 1) / b;\n\
         }\n\
         template <class T, class U> constexpr int c4(T a, U b) {\n\
           typedef T P;\n\
           if constexpr (s::is_signed_v<P>) { return (a + b - 1) / b; } else { return a; }\n\
         }\n\
         static_assert(c1(10, 3) == 4, \"a\");\n\
         static_assert(c2(10, 3) == 4, \"b\");\n\
         static_assert(c3(10, 3) == 4, \"c\");\n\
         static_assert(c4(10, 3) == 4, \"c\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn block_scope_using_declarations_and_constexpr_locals_in_template_arguments() {
    // CUB's `enable_simd_reduction`: `using cub::detail::is_one_of;`, then
    // `constexpr auto length = static_size_v<Input>();` named by a later
    // call's template argument (`enable_sm90_simd_reduction<T, Op, length>()`).
    check(
        "namespace d { template <class T, class... Ts> constexpr bool one_of() { return (__is_same(T, Ts) || ...); }\n\
           template <class T> constexpr int size_v() { return sizeof(T) / sizeof(int); } }\n\
         template <class T, int N> constexpr bool fits() { return N >= 4; }\n\
         template <class In, class T> constexpr bool simd() {\n\
           using d::one_of;\n\
           constexpr auto length = d::size_v<In>();\n\
           return one_of<T, int, unsigned>() && fits<T, length>();\n\
         }\n\
         struct A4 { int a[4]; };\n\
         struct A2 { int a[2]; };\n\
         static_assert(simd<A4, int>(), \"\");\n\
         static_assert(!simd<A2, int>(), \"\");\n\
         static_assert(!simd<A4, float>(), \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn sizeof_an_array_whose_bound_comes_from_its_initializer() {
    // CUB's `DispatchRadixSort`: `size_t allocation_sizes[] = {…};` then
    // `constexpr int NUM_ALLOCATIONS = sizeof(allocation_sizes) /
    // sizeof(allocation_sizes[0]);` named by a template argument.
    check(
        "template <int N> struct W { static constexpr int n = N; };\n\
         constexpr int f(unsigned long a) {\n\
           unsigned long sizes[] = {a, a * 2, 3};\n\
           constexpr int k = sizeof(sizes) / sizeof(sizes[0]);\n\
           return W<k>::n;\n\
         }\n\
         static_assert(f(1) == 3, \"\");",
        expect![[r#"
            namespace: true
        "#]],
    );
}

#[test]
fn decltype_of_an_explicit_value_argument_while_others_are_deduced() {
    // libcu++'s `__type_switch`: `__type_switch_fn<_Label::value>(ptr, 0)`
    // picks the base `__type_case<_Label, _Value>` = `__type_case_<
    // integral_constant<decltype(_Label), _Label>, _Value>` of the switch
    // (the cases rebound to the label's type), `_Label` given and `_Value`
    // deduced; the default case takes `long` (g++ agrees on every assert).
    check(
        "template <class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template <class A, class B> struct is_same { static constexpr bool value = false; };\n\
         template <class A> struct is_same<A, A> { static constexpr bool value = true; };\n\
         template <class L, class V> struct case_ {\n\
           template <class O> using rebind = case_<integral_constant<O, L::value>, V>;\n\
           using type = V;\n\
         };\n\
         template <auto L, class V> using case_t = case_<integral_constant<decltype(L), L>, V>;\n\
         template <class V> struct dflt { template <class O> using rebind = dflt; using type = V; };\n\
         template <auto L, class V> auto pick(case_t<L, V>*, int) -> case_t<L, V>;\n\
         template <auto L, class V> auto pick(dflt<V>*, long) -> dflt<V>;\n\
         template <class T, class... Cs> struct sw : Cs::template rebind<T>... {};\n\
         using S = sw<unsigned long, case_t<1, char>, case_t<4, int>, dflt<double>>;\n\
         static_assert(is_same<decltype(pick<4ul>(static_cast<S*>(nullptr), 0))::type, int>::value, \"case\");\n\
         static_assert(is_same<decltype(pick<8ul>(static_cast<S*>(nullptr), 0))::type, double>::value, \"default\");",
        expect![[r#"
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn sfinae_under_a_pointer_declarator_removes_an_operator_template() {
    // CuTe's mixed static-dynamic `operator*(U, C<t>)`, enabled by
    // `typename enable_if<is_std_integral<U> && t == 0>::type* = nullptr`:
    // for `32 * C<128>{}` it is removed, and the built-in `int * int` (C<128>
    // converted) is used; the failure is under the parameter type's `*`.
    // CUTLASS's collective builder computes its pipeline stage count so
    // (`a_bits * size<0>(TileShape{})`); g++ agrees on every assert.
    check(
        "template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { using type = T; };\n\
         template <class T> struct is_int { static constexpr bool value = false; };\n\
         template <> struct is_int<int> { static constexpr bool value = true; };\n\
         template <class A, class B> struct same { static constexpr bool value = false; };\n\
         template <class A> struct same<A, A> { static constexpr bool value = true; };\n\
         template <auto v> struct C {\n\
           static constexpr auto value = v;\n\
           using value_type = decltype(v);\n\
           constexpr operator value_type() const noexcept { return value; }\n\
         };\n\
         template <class U, auto t, typename enable_if<(is_int<U>::value && t == 0)>::type* = nullptr>\n\
         constexpr C<0> operator*(U, C<t>) { return {}; }\n\
         static_assert(32 * C<128>{} == 4096, \"\");\n\
         static_assert(same<decltype(32 * C<128>{}), int>::value, \"\");\n\
         static_assert(same<decltype(32 * C<0>{}), C<0>>::value, \"\");\n\
         template <auto t, typename enable_if<(t == 0)>::type* = nullptr>\n\
         constexpr char f(C<t>) { return 1; }\n\
         constexpr long f(long) { return 2; }\n\
         static_assert(same<decltype(f(C<128>{})), long>::value, \"\");\n\
         static_assert(f(C<128>{}) == 2, \"\");\n\
         static_assert(f(C<0>{}) == 1, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn a_template_that_matches_better_beats_a_non_template_in_constant_evaluation() {
    // The interpreter ranked by argument kinds and let a non-template win
    // ties; a template taking the class argument as it is beats a
    // non-template that needs a user-defined conversion or an ellipsis.
    check(
        "template <int v> struct D { constexpr operator int() const { return v; } };\n\
         template <int t> constexpr char g(D<t>) { return 1; }\n\
         constexpr long g(...) { return 2; }\n\
         static_assert(g(D<0>{}) == 1, \"\");\n\
         template <class T> constexpr char h(T) { return 1; }\n\
         constexpr long h(...) { return 2; }\n\
         static_assert(h(3) == 1, \"\");\n\
         template <int t> constexpr char k(D<t>) { return 1; }\n\
         constexpr long k(long) { return 2; }\n\
         static_assert(k(D<5>{}) == 1, \"\");\n\
         constexpr char m(int) { return 1; }\n\
         template <class T> constexpr long m(T*) { return 2; }\n\
         static_assert(m(3) == 1, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn static_asserts_in_a_nested_namespace_definition() {
    // `namespace a::b { … }` opens both: an assert inside sees b's names
    // (it was evaluated in `a`, where `k` is not declared).
    check(
        "namespace a::b {\n\
         constexpr int k = 32;\n\
         static_assert(k == 32, \"\");\n\
         }\n\
         namespace a::b { static_assert(k + 1 == 33, \"\"); }\n\
         namespace u { namespace detail { constexpr int k = 1; } }\n\
         namespace v { using namespace u; namespace detail { constexpr int k = 2; } }\n\
         namespace v::detail { static_assert(k == 2, \"\"); }",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn decltype_of_a_variable_declared_auto() {
    // `auto` deduced from a literal, a `sizeof` or a name, as by-value
    // deduction does, then `const` again for `constexpr`: CUTLASS's
    // `constexpr auto a_bits = cute::sizeof_bits_v<ElementA>;` (g++ agrees
    // on every assert).
    check(
        "template <class A, class B> struct same { static constexpr bool value = false; };\n\
         template <class A> struct same<A, A> { static constexpr bool value = true; };\n\
         constexpr auto a1 = 3;\n\
         static_assert(same<decltype(a1), const int>::value, \"\");\n\
         constexpr auto a2 = sizeof(int);\n\
         static_assert(same<decltype(a2), const unsigned long>::value, \"\");\n\
         template <class T> struct sb { static constexpr int value = 8; };\n\
         template <class T> constexpr auto sb_v = sb<T>::value;\n\
         constexpr auto a3 = sb_v<float>;\n\
         static_assert(same<decltype(a3), const int>::value, \"\");\n\
         static_assert(same<decltype(sb_v<float>), const int>::value, \"\");\n\
         static_assert(same<decltype(a3 * 2u), unsigned int>::value, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn an_unscoped_enumeration_promotes_by_its_values() {
    // [conv.prom]/3–4 and [over.ics.rank]/4.2, every assert checked with
    // g++: `enum { 3, 7 }` has underlying type `unsigned int` but promotes
    // to `int` (hir said `unsigned int`); a fixed type promotes further
    // (`enum : unsigned char` to `int`), and conversion to the fixed type
    // beats conversion to its promotion.
    check(
        "template <class A, class B> struct same { static constexpr bool value = false; };\n\
         template <class A> struct same<A, A> { static constexpr bool value = true; };\n\
         enum Slow { S3 = 3, S7 = 7 };\n\
         enum Neg { N = -1, P = 5 };\n\
         enum Big { B0 = 0, B1 = 0x80000000u };\n\
         enum Huge { H = 0x100000000 };\n\
         enum Small : unsigned char { SC = 1 };\n\
         enum Wide : unsigned long { W = 1 };\n\
         static_assert(same<decltype(1 + S7), int>::value, \"\");\n\
         static_assert(same<decltype(+S7), int>::value, \"\");\n\
         static_assert(same<decltype(N + P), int>::value, \"\");\n\
         static_assert(same<decltype(+B1), unsigned int>::value, \"\");\n\
         static_assert(same<decltype(+H), long>::value, \"\");\n\
         static_assert(same<decltype(+SC), int>::value, \"\");\n\
         static_assert(same<decltype(SC + SC), int>::value, \"\");\n\
         static_assert(same<decltype(+W), unsigned long>::value, \"\");\n\
         static_assert(same<decltype(1u + S7), unsigned int>::value, \"\");\n\
         int f(int);\n\
         char f(unsigned);\n\
         static_assert(same<decltype(f(S7)), int>::value, \"\");\n\
         long g(long);\n\
         char g(unsigned);\n\
         static_assert(same<decltype(g(B1)), char>::value, \"\");\n\
         short h(unsigned char);\n\
         char h(int);\n\
         static_assert(same<decltype(h(SC)), short>::value, \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}

#[test]
fn implicit_and_defaulted_copy_constructors_are_noexcept_as_their_subobjects() {
    // [except.spec]: an implicit copy constructor, and one defaulted where
    // it is declared, is non-throwing when every subobject's copy it calls
    // is (libcu++'s `__tuple_impl` picks `__all_nothrow_constructible` from
    // such copies of thrust's `zip_iterator`); g++ agrees on every assert.
    check(
        "template <class T> T&& declval() noexcept;\n\
         struct A { A(const A&) noexcept; A(); };\n\
         struct B { B(const B&); B(); };\n\
         struct C { A a; int x; };\n\
         struct D { B b; };\n\
         struct E { A a; E() {} E(const E&) = default; };\n\
         struct F { B b; F() {} F(const F&) = default; };\n\
         template <class T> struct W { T t; W() {} W(const W&) = default; };\n\
         static_assert(noexcept(C(declval<C&>())), \"\");\n\
         static_assert(!noexcept(D(declval<D&>())), \"\");\n\
         static_assert(noexcept(E(declval<E&>())), \"\");\n\
         static_assert(!noexcept(F(declval<F&>())), \"\");\n\
         static_assert(noexcept(W<A>(declval<W<A>&>())), \"\");\n\
         static_assert(!noexcept(W<B>(declval<W<B>&>())), \"\");",
        expect![[r#"
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
            namespace: true
        "#]],
    );
}
