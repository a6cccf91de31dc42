//! CUB's device-wide algorithms (`cub::DeviceReduce`, `DeviceRadixSort`, …):
//! the C++ rules their dispatch chains lean on, on small snippets. Names
//! checked against g++ 12's `nm`.

use expect_test::expect;

use super::calls as check;

#[test]
fn deduction_through_pointer_conversions() {
    // [temp.deduct.call]/4: `const T*` from `int*` (qualification
    // conversion), `const B<T>*` from `D*`.
    check(
        "template <class T> T fetch(const T* d) { return *d; }\n\
         template <class T> struct B {};\n\
         struct D : B<long> {};\n\
         template <class T> int base(const B<T>* p) { return 0; }\n\
         int user() { int* p = 0; D d; return fetch(p) + base(&d); }",
        "user",
        expect![[r#"
            _Z5fetchIiET_PKS0_
            _Z4baseIlEiPK1BIT_E
        "#]],
    );
}

/// Every entity the unit lists (its own and the instantiation closure), sorted.
fn entities(text: &str) -> String {
    let (db, tu) = super::db_with(text);
    super::entity_names(&db, tu)
}

#[test]
fn array_bounds_deduced_and_fold_over_a_value_pack() {
    // CUB's `AliasTemporaries(…, void* (&)[N], const size_t (&)[N])` with a
    // `size_t sizes[]{…}` (the bound comes from the initializer), and
    // `ChainedPolicy::runtime_to_compiletime`'s fold of a conditional over
    // a value pack with explicit template arguments in the pattern.
    expect![[r#"
        _Z4pickILi70EEiRi
        _Z4pickILi90EEiRi
        _Z5aliasILi3EEiRAT__PvRAT__Km
        _Z5user1v
        _Z5user3v
        _Z8dispatchIJLi7ELi9EEEii
    "#]]
    .assert_eq(&entities(
        "template <int N> int alias(void* (&a)[N], const unsigned long (&s)[N]) { return N; }\n\
         int user1() { unsigned long s[]{1, 2, 3}; void* a[3] = {}; return alias(a, s); }\n\
         template <int V> int pick(int& e) { return e = V; }\n\
         template <int... Archs> int dispatch(int v) { int e = 0; (..., (v == Archs * 10 ? (e = pick<Archs * 10>(e)) : 0)); return e; }\n\
         int user3() { return dispatch<7, 9>(70); }",
    ));
}

#[test]
fn named_rvalue_reference_is_an_lvalue() {
    check(
        "template <class T> void g(T&&) {}\n\
         void user(int&& x) { g(x); }",
        "user",
        expect![[r#"
            _Z1gIRiEvOT_
        "#]],
    );
}

#[test]
fn decltype_of_any_expression_through_invocability_traits() {
    // libcu++'s `__invoke_of<F, Args...>::type`: `decltype` of a call of a
    // call result with pack expansions, down to `plus<void>::operator()`'s
    // trailing `decltype(forward<_T1>(__t) + forward<_T2>(__u))`, whose
    // parameters are in scope. `cub::DeviceReduce::Sum` takes its
    // accumulator type from it.
    check(
        "namespace cs {\n\
         template <class T> T&& declval() noexcept;\n\
         template <class T> struct remove_reference { using type = T; };\n\
         template <class T> struct remove_reference<T&> { using type = T; };\n\
         template <class T> struct remove_reference<T&&> { using type = T; };\n\
         template <class T> constexpr T&& forward(typename remove_reference<T>::type& t) noexcept { return static_cast<T&&>(t); }\n\
         template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { using type = T; };\n\
         template <class A, class B> struct is_same { static const bool value = false; };\n\
         template <class A> struct is_same<A, A> { static const bool value = true; };\n\
         struct __nat {};\n\
         template <class _Fp, class... _Args>\n\
         constexpr decltype(cs::declval<_Fp>()(cs::declval<_Args>()...))\n\
         __invoke(_Fp&& __f, _Args&&... __args) { return static_cast<_Fp&&>(__f)(static_cast<_Args&&>(__args)...); }\n\
         template <class _Ret, class _Fp, class... _Args>\n\
         struct __invokable_r {\n\
           template <class _XFp, class... _XArgs>\n\
           static decltype(cs::__invoke(cs::declval<_XFp>(), cs::declval<_XArgs>()...)) __try_call(int);\n\
           template <class _XFp, class... _XArgs>\n\
           static __nat __try_call(...);\n\
           using _Result = decltype(__try_call<_Fp, _Args...>(0));\n\
           static const bool value = !is_same<_Result, __nat>::value;\n\
         };\n\
         template <class _Fp, class... _Args>\n\
         struct __invoke_of : public enable_if<__invokable_r<void, _Fp, _Args...>::value, typename __invokable_r<void, _Fp, _Args...>::_Result> {};\n\
         template <class T = void> struct plus;\n\
         template <> struct plus<void> {\n\
           template <class _T1, class _T2>\n\
           constexpr auto operator()(_T1&& __t, _T2&& __u) const -> decltype(cs::forward<_T1>(__t) + cs::forward<_T2>(__u)) { return cs::forward<_T1>(__t) + cs::forward<_T2>(__u); }\n\
         };\n\
         }\n\
         template <class T> void show(T) {}\n\
         struct X {};\n\
         void user() {\n\
           typename cs::__invoke_of<cs::plus<void>, int, long>::type x = 0; show(x);\n\
         }",
        "user",
        expect![[r#"
            _Z4showIlEvT_
        "#]],
    );
}

#[test]
fn address_of_a_specialization_with_defaulted_arguments() {
    // CUB's kernel getters: `&DeviceScanKernel<…>` names all but the
    // trailing defaulted parameters (`RealInitValueT = typename
    // InitValueT::value_type`): the one specialization, its function type.
    check(
        "template <class T> struct V { using value_type = T; };\n\
         template <class P, class I, class R = typename I::value_type> void k(P, I) {}\n\
         template <class F> void launch(F f) {}\n\
         void user() { launch(&k<int, V<long>>); }",
        "user",
        expect![[r#"
            _Z1kIi1VIlElEvT_T0_
            _Z6launchIPFvi1VIlEEEvT_
        "#]],
    );
}

#[test]
fn anonymous_union_member_of_a_template_instance() {
    // `cub::detail::InputValue<T, IterT>`: `union { FutureValue<…> …; T
    // m_immediate_value; }`, its members typed with the instance's `T`.
    expect![[r#"
        _Z3ucsIiRKiEvPT_OT0_
        _Z4userR2IVIiE
        _ZN2IVIiEC1ERKS0_
    "#]]
    .assert_eq(&entities(
        "template <class T, class U> void ucs(T* p, U&& v) {}\n\
         template <class T> struct IV {\n\
           IV(int) : f(false) {}\n\
           IV(const IV& o) : f(o.f) { if (f) { g = o.g; } else { ucs(&m, o.m); } }\n\
           bool f;\n\
           union { long g; T m; };\n\
         };\n\
         void user(IV<int>& x) { IV<int> y(x); }",
    ));
}

#[test]
fn decltype_of_a_local_in_a_template_body() {
    // `cub::ThreadReduce<decltype(array), …>(array, op)`, and
    // `dispatch_streaming_arg_reduce_t<…, decltype(out_it), …>`.
    expect![[r#"
        _Z1fIiEvT_
        _Z2trIclEvRKT0_
        _Z2trIiA4_iEvRKT0_
        _Z4userv
    "#]]
    .assert_eq(&entities(
        "template <class T, class A> void tr(const A& a) {}\n\
         template <class T> void f(T x) { T arr[4] = {}; auto y = x + 1L; tr<int, decltype(arr)>(arr); tr<char, decltype(y)>(y); }\n\
         void user() { f(1); }",
    ));
}

#[test]
fn address_of_an_unqualified_member_is_a_pointer() {
    // `&m` in a member function is `&this->m` (only `&S::m` is a pointer to member).
    check(
        "template <class T> void one(T* p) {}\n\
         struct D { void f() { one(&m); } long m; };",
        "f",
        expect![[r#"
            _Z3oneIlEvPT_
        "#]],
    );
}

#[test]
fn policy_chain_through_a_dependent_member_template_call() {
    // `cub::ChainedPolicy`: `if constexpr (DevicePtxVersion <
    // PolicyPtxVersion)` walks down to `PrevPolicyT::template
    // invoke_static<DevicePtxVersion>(op)` (a dependent name after
    // `template`, parsed as a functional cast, is the call) and ends in
    // `op.template Invoke<Policy600>()` of the partial specialization; the
    // branch not taken (`Invoke<Policy1000>`) is not instantiated. Names
    // from g++ 12's `nm`.
    expect![[r#"
        _Z4userv
        _ZN13ChainedPolicyILi1000EN3hubIiE10Policy1000ENS1_9Policy600EE13invoke_staticILi900E4DispEEiRT0_
        _ZN13ChainedPolicyILi1000EN3hubIiE10Policy1000ENS1_9Policy600EE6InvokeI4DispEEiiRT_
        _ZN13ChainedPolicyILi600EN3hubIiE9Policy600ES2_E13invoke_staticILi900E4DispEEiRT0_
        _ZN4Disp6InvokeIN3hubIiE9Policy600EEEiv
    "#]]
    .assert_eq(&entities(
        "template <int PolicyPtxVersion, typename PolicyT, typename PrevPolicyT>\n\
         struct ChainedPolicy {\n\
           template <typename FunctorT> static int Invoke(int v, FunctorT& op) { return invoke_static<900>(op); }\n\
         private:\n\
           template <int, typename, typename> friend struct ChainedPolicy;\n\
           template <int DevicePtxVersion, typename FunctorT> static int invoke_static(FunctorT& op) {\n\
             if constexpr (DevicePtxVersion < PolicyPtxVersion) { return PrevPolicyT::template invoke_static<DevicePtxVersion>(op); }\n\
             else { return op.template Invoke<PolicyT>(); }\n\
           }\n\
         };\n\
         template <int PolicyPtxVersion, typename PolicyT>\n\
         struct ChainedPolicy<PolicyPtxVersion, PolicyT, PolicyT> {\n\
           template <int, typename, typename> friend struct ChainedPolicy;\n\
         private:\n\
           template <int, typename FunctorT> static int invoke_static(FunctorT& op) { return op.template Invoke<PolicyT>(); }\n\
         };\n\
         template <class T> struct hub {\n\
           struct Policy600 : ChainedPolicy<600, Policy600, Policy600> {};\n\
           struct Policy1000 : ChainedPolicy<1000, Policy1000, Policy600> {};\n\
           using MaxPolicy = Policy1000;\n\
         };\n\
         struct Disp { template <class P> int Invoke() { return 1; } };\n\
         int user() { Disp d; return hub<int>::MaxPolicy::Invoke(900, d); }",
    ));
}

#[test]
fn if_constexpr_on_a_comparison_of_value_parameters() {
    // `if constexpr (D < P * 2 && !(D == 7))`: the function's own value
    // argument against the class's selects one branch.
    expect![[r#"
        _Z1aIiEiv
        _Z4userv
        _ZN2CPILi500EE1fILi900EEEiv
    "#]]
    .assert_eq(&entities(
        "template <class T> int a() { return 1; } template <class T> int b() { return 2; }\n\
         template <int P> struct CP { template <int D> static int f() { if constexpr (D < P * 2 && !(D == 7)) { return a<int>(); } else { return b<int>(); } } };\n\
         int user() { return CP<500>::f<900>(); }",
    ));
}

#[test]
fn enumeration_operands_take_no_converting_operator() {
    // [over.match.oper]/3.2: with no class operand, `e != A` considers only
    // non-member operators with a parameter of the enumeration type; `H`'s
    // `operator!=` (reachable through `H(int)`) is no candidate, the
    // built-in comparison is used.
    check(
        "enum E { A, B };\n\
         struct H { H(int); };\n\
         bool operator!=(const H&, const H&);\n\
         bool operator==(E, E);\n\
         bool user(E e) { return (e != A) && (e == B); }",
        "user",
        expect![[r#"
            _Zeq1ES_
        "#]],
    );
}

#[test]
fn auto_variable_template_takes_its_initializers_type() {
    // CUB's `detail::bool_constant_v<V>` (`inline constexpr auto … =
    // bool_constant<V>{}`) selects `many(true_type)`; g++ 12 emits
    // `_Z4manyI1PEi17integral_constantIbLb1EE`.
    let names = entities(
        "template <class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template <bool B> using bool_constant = integral_constant<bool, B>;\n\
         using true_type = bool_constant<true>; using false_type = bool_constant<false>;\n\
         template <bool Value> inline constexpr auto bool_constant_v = bool_constant<Value>{};\n\
         struct P { enum { ONESWEEP = true }; };\n\
         template <class T> int many(false_type) { return 0; }\n\
         template <class T> int many(true_type) { return 1; }\n\
         template <class A> int inv() { return many<A>(bool_constant_v<A::ONESWEEP>); }\n\
         int user() { return inv<P>(); }",
    );
    assert!(names.contains("_Z4manyI1PEi17integral_constantIbLb1EE\n"), "{names}");
    assert!(!names.contains("_Z4manyI1PEi17integral_constantIbLb0EE"), "{names}");
}

#[test]
fn if_constexpr_on_a_constexpr_member_call() {
    // CUB's transform dispatch: `if constexpr (Algorithm::ublkcp ==
    // wrapped_policy.GetAlgorithm())`, a static constexpr member returning
    // the policy's `algorithm`, selects the prefetch branch (g++ 12's `nm`:
    // `_Z1bIiEiv`, no `_Z1aIiEiv`).
    let names = entities(
        "enum class Algorithm { prefetch, ublkcp };\n\
         struct P9 { static constexpr Algorithm algorithm = Algorithm::prefetch; };\n\
         template <class SP> struct W : SP { static constexpr Algorithm GetAlgorithm() { return SP::algorithm; } };\n\
         template <class T> int a() { return 1; }\n\
         template <class T> int b() { return 2; }\n\
         template <class P> int inv(P p) { W<P> w; if constexpr (Algorithm::ublkcp == w.GetAlgorithm()) { return a<int>(); } else { return b<int>(); } }\n\
         int user() { return inv(P9{}); }",
    );
    assert!(names.contains("_Z1bIiEiv\n") && names.contains("_Z3invI2P9EiT_\n"), "{names}");
    assert!(!names.contains("_Z1aIiEiv"), "{names}");
}

#[test]
fn class_template_arguments_deduced_from_guides() {
    // [over.match.class.deduct]: `array{p}` through a guide whose target's
    // bound is `1 + sizeof...(U)` (libcu++'s `cuda::std::array`, CUB's
    // `DeviceHistogram::HistogramEven`), `pair(1, 2.0)` and `pair{p, 'c'}`,
    // and the copy deduction candidate (`array{two}` is `two`'s type).
    expect![[r#"
        _Z3anyIiLm2EEiN2ns5arrayIT_XT0_EEE
        _Z3anyIiLm3EEiN2ns5arrayIT_XT0_EEE
        _Z4bothIPicEiN2ns4pairIT_T0_EE
        _Z4bothIidEiN2ns4pairIT_T0_EE
        _Z4takeILi1EPiEiN2ns5arrayIT0_XT_EEE
        _Z4userPi
        _ZN2ns4pairIPicEC1ES1_c
        _ZN2ns4pairIidEC1Eid
    "#]]
    .assert_eq(&entities(
        "namespace ns {\n\
         template <class T, unsigned long N> struct array { T elems[N]; };\n\
         template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { typedef T type; };\n\
         template <class A, class B> inline constexpr bool is_same_v = false;\n\
         template <class A> inline constexpr bool is_same_v<A, A> = true;\n\
         template <class T, class... U, class = typename enable_if<(is_same_v<T, U> && ...)>::type>\n\
         __attribute__((host)) __attribute__((device)) array(T, U...) -> array<T, 1 + sizeof...(U)>;\n\
         template <class A, class B> struct pair { A a; B b; pair(A x, B y) : a(x), b(y) {} };\n\
         template <class A, class B> pair(A, B) -> pair<A, B>;\n\
         }\n\
         template <int N, class T> int take(ns::array<T, N> a) { return N; }\n\
         template <class T, unsigned long N> int any(ns::array<T, N> a) { return N; }\n\
         template <class A, class B> int both(ns::pair<A, B> p) { return 0; }\n\
         int user(int* p) { ns::array<int, 2> two{}; return take<1>(ns::array{p}) + any(ns::array{1, 2, 3}) + both(ns::pair(1, 2.0)) + both(ns::pair{p, 'c'}) + any(ns::array{two}); }",
    ));
}

#[test]
fn fold_over_a_pack_named_in_template_arguments() {
    // [temp.variadic]/8: in a default template argument's fold, the pack
    // named among a variable or class template's arguments stands for each
    // element in turn (libcu++'s `array` guide's
    // `enable_if_t<(is_same_v<_Tp, _Args> && ...)>`); an empty `&&` fold is true.
    expect![[r#"
        _Z1fIPiJEvEiT_DpT0_
        _Z1fIPiJS0_EvEiT_DpT0_
        _Z1gIPiJS0_S0_EvEiT_DpT0_
        _Z1hIiJPiEvEiT_DpT0_
        _Z4userPi
    "#]]
    .assert_eq(&entities(
        "namespace ns {\n\
         template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { typedef T type; };\n\
         template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;\n\
         template <class A, class B> inline constexpr bool is_same_v = false;\n\
         template <class A> inline constexpr bool is_same_v<A, A> = true;\n\
         template <class A, class B> struct is_same { static constexpr bool value = false; };\n\
         template <class A> struct is_same<A, A> { static constexpr bool value = true; };\n\
         }\n\
         template <class T, class... U, class = ns::enable_if_t<(ns::is_same_v<T, U> && ...)>> int f(T, U...) { return 0; }\n\
         template <class T, class... U, class = ns::enable_if_t<(ns::is_same<T, U>::value && ...)>> int g(T, U...) { return 0; }\n\
         template <class T, class... U, class = ns::enable_if_t<((sizeof(U) == 8) && ...)>> int h(T, U...) { return 0; }\n\
         int user(int* p) { return f(p) + f(p, p) + g(p, p, p) + h(1, p); }",
    ));
}

#[test]
fn value_parameter_type_names_the_templates_own_parameter() {
    // `integral_constant<bool, true>` written inside `is_integral<_Tp>`:
    // the value parameter's type `_Tp` is integral_constant's own first
    // parameter (bool), not the enclosing `_Tp` (int) — else the base is
    // `integral_constant<bool, (int)1>` and `is_integral<int>` does not
    // convert to `true_type` (CUB's `DeviceSegmentedReduce::Max`).
    expect![[r#"
        _Z4takeIiEiN2ns17integral_constantIbLb1EEET_
        _Z4userv
    "#]]
    .assert_eq(&entities(
        "namespace ns {\n\
         template <class _Tp, _Tp __v> struct integral_constant { static constexpr const _Tp value = __v; };\n\
         using true_type = integral_constant<bool, true>;\n\
         template <class _Tp> struct is_integral : public integral_constant<bool, true> {};\n\
         }\n\
         template <class T> int take(ns::true_type, T) { return 1; }\n\
         template <class T> int take(ns::integral_constant<bool, false>, T) { return 0; }\n\
         int user() { using C = ns::is_integral<int>; return take(C{}, 1); }",
    ));
}

#[test]
fn logical_or_decided_by_an_operand_the_model_evaluates() {
    // thrust's `is_contiguous_iterator_impl` is `contiguous_iterator<It> ||
    // … || proclaim_contiguous_iterator<It>::value`: when one operand of
    // `||` is true (of `&&`, false) the result does not depend on an
    // operand the model cannot evaluate (here a comma in `sizeof`).
    expect![[r#"
        _Z1vILb1EEiv
        _Z4userv
    "#]]
    .assert_eq(&entities(
        "namespace ns {\n\
         template <class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template <class T> struct claimed : integral_constant<bool, false> {};\n\
         template <> struct claimed<int*> : integral_constant<bool, true> {};\n\
         template <class T> struct gap { static const bool value = sizeof(static_cast<T*>(nullptr), 0) == 4; };\n\
         template <class T> struct contig : integral_constant<bool, gap<T>::value || claimed<T>::value> {};\n\
         }\n\
         template <bool B> int v() { return B; }\n\
         int user() { return v<ns::contig<int*>::value>(); }",
    ));
}

#[test]
fn value_parameter_of_an_enumeration_of_the_templates_namespace() {
    // `template <mode M, class T> struct D` in `ns`, written `ns::D<ns::mode::yes, int>`
    // elsewhere: `M`'s type is looked up where D is declared (CUB's
    // `transform::dispatch_t<requires_stable_address S, …>`), so the
    // argument keeps its enumeration type in the mangled name.
    expect![[r#"
        _Z4userv
        _ZN2ns1DILNS_4modeE1EiE1fEv
    "#]]
    .assert_eq(&entities(
        "namespace ns { enum class mode { no, yes };\n\
         template <mode M, class T> struct D { static int f() { return 1; } }; }\n\
         int user() { return ns::D<ns::mode::yes, int>::f(); }",
    ));
}

#[test]
fn non_deduced_alias_of_an_explicit_specialization() {
    // A parameter `meta::scalar_of_t<T>*` (an alias of a dependent member
    // type) is a non-deduced context: T comes from the other parameter, and
    // the substituted type (`scalar_of<S>::type`, an explicit
    // specialization's member) must match the argument afterwards.
    check(
        "struct S { float x; };\n\
         namespace meta { template<class T> struct scalar_of { using type = T; }; template<> struct scalar_of<S> { using type = float; };\n\
         template<class T> using scalar_of_t = typename scalar_of<T>::type; }\n\
         template<class T> void sc(const T*, meta::scalar_of_t<T>*, int) {}\n\
         void user() { S* v = 0; float* f = 0; sc(v, f, 10); }",
        "user",
        expect![[r#"
            _Z2scI1SEvPKT_PN4meta9scalar_ofIS1_E4typeEi
        "#]],
    );
}

#[test]
fn member_type_of_a_cv_qualified_class_parameter() {
    // libcu++'s `__atomic_load_dispatch(const _Tp*, …)` called with a
    // `const volatile __atomic_storage<int>*`: `_Tp` is `volatile
    // __atomic_storage<int>` and `typename _Tp::__underlying_t` names the
    // member of the class (cv ignored in a nested-name-specifier).
    check(
        "template<class T> struct St { using U = T; };\n\
         template<class Tp> typename Tp::U load(const Tp* a) { return 0; }\n\
         int user() { const volatile St<int>* p = 0; return load(p); }",
        "user",
        expect![[r#"
            _Z4loadIV2StIiEENT_1UEPKS3_
        "#]],
    );
}

#[test]
fn partial_specialization_deduces_an_array_bound() {
    // CUB's `static_size<T[N]> : integral_constant<int, N>` (the length of
    // `ThreadReduce`'s input, read into a local that a template argument
    // names): `N` is deduced from the argument's bound, `T` keeps the
    // element's cv.
    expect![[r#"
        _Z3lenIA3_iEiv
        _Z3lenIA5_KcEiv
        _Z4pickILi3EiEiPT0_
        _Z4pickILi5EKcEiPT0_
        _Z4userv
        _ZN11static_sizeIA3_ivE5valueE
        _ZN11static_sizeIA5_KcvE5valueE
    "#]]
    .assert_eq(&entities(
        "template <class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template <class T, class = void> struct static_size {};\n\
         template <class T, unsigned long N> struct static_size<T[N], void> : integral_constant<int, N> {};\n\
         template <class T> struct elem {};\n\
         template <class T, unsigned long N> struct elem<T[N]> { using type = T; };\n\
         template <int N, class E> int pick(E*) { return N; }\n\
         template <class T> int len() { constexpr auto n = static_size<T>::value; return pick<n>((typename elem<T>::type*)0); }\n\
         int user() { return len<int[3]>() + len<const char[5]>(); }",
    ));
}

#[test]
fn value_parameter_deduced_through_an_auto_alias() {
    // CUB's `ThreadLoad(itr, constant_v<MODIFIER>, …)` picking
    // `ThreadLoad(const T*, constant_t<MODIFIER>, true_type)`, where
    // `constant_t<V>` is `integral_constant<decltype(V), V>`: `MODIFIER`
    // is deduced from the argument's value; the overload for one
    // enumerator is more specialized.
    expect![[r#"
        _Z10constant_vIL3Mod0EE
        _Z10constant_vIL3Mod2EE
        _Z4loadIL3Mod0EPiEiT0_
        _Z4loadIL3Mod2EPiEiT0_
        _Z4loadIiET_PKS0_17integral_constantI3ModLS4_0EES3_IbLb1EE
        _Z4loadIiL3Mod2EET_PKS1_17integral_constantIDtT0_EXT0_EES4_IbLb1EE
        _Z4userPi
    "#]]
    .assert_eq(&entities(
        "template <class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template <bool B> using bool_constant = integral_constant<bool, B>;\n\
         using true_type = bool_constant<true>;\n\
         template <auto V> using constant_t = integral_constant<decltype(V), V>;\n\
         template <auto V> inline constexpr auto constant_v = constant_t<V>{};\n\
         enum Mod { A, B, C };\n\
         template <class T> T load(const T* p, constant_t<A>, true_type) { return *p; }\n\
         template <class T, Mod M> T load(const T* p, constant_t<M>, true_type) { return *p + M; }\n\
         template <Mod M, class It> int load(It it) { return load(it, constant_v<M>, true_type{}); }\n\
         int user(int* x) { return load<C>(x) + load<A>(x); }",
    ));
}

#[test]
fn const_reference_to_an_array_deduces_the_unqualified_array() {
    // `ThreadReduce(const Input& input, …)` with a `const unsigned[9]`
    // argument: the array's cv is its elements', so `Input` is
    // `unsigned[9]` (cicc's `ThreadReduce<unsigned int [9], …>`).
    check(
        "template <class In> int red(const In& in) { return sizeof(In); }\n\
         int user() { const unsigned a[9] = {}; unsigned b[2] = {}; return red(a) + red(b); }",
        "user",
        expect![[r#"
            _Z3redIA9_jEiRKT_
            _Z3redIA2_jEiRKT_
        "#]],
    );
}

#[test]
fn member_alias_named_after_the_template_it_names() {
    // CUB's `BlockScanRaking`: `using BlockRakingLayout =
    // BlockRakingLayout<T, BLOCK_THREADS>;` with `BLOCK_THREADS` a member:
    // in its own type-id the name is still the namespace's class template
    // ([basic.scope.pdecl]/3), the arguments are read in the class.
    expect![[r#"
        _Z4useri
        _ZN6LayoutIiLi128EE3SEGE
        _ZN6LayoutIiLi128EE3ptrEi
        _ZN6RakingIiLi64ELi2EE2upEi
        _ZN6RakingIiLi64ELi2EE4copyILi4EEEiv
    "#]]
    .assert_eq(&entities(
        "template <class T, int N> struct Layout { static constexpr int SEG = N / 32; static int ptr(int x) { return x + SEG; } };\n\
         template <class T, int X, int Y> struct Raking {\n\
           static constexpr int BLOCK_THREADS = X * Y;\n\
           using Layout = Layout<T, BLOCK_THREADS>;\n\
           static constexpr int SEG = Layout::SEG;\n\
           template <int I> static int copy() { return I; }\n\
           static int up(int t) { return Layout::ptr(t) + copy<SEG>(); }\n\
         };\n\
         int user(int t) { return Raking<int, 64, 2>::up(t); }",
    ));
}

#[test]
fn recursion_ends_at_a_member_evaluated_through_a_block_scope_alias() {
    // CUB's `BlockScanWarpScans::ApplyWarpAggregates<ScanOp, WARP>` recurses
    // to `WARP + 1` until the `constant_t<WARPS>` overload, with `WARPS =
    // cuda::ceil_div(BLOCK_THREADS, WARP_THREADS)`; libcu++'s `ceil_div`
    // branches on `is_signed_v<_Prom>` with `using _Prom = decltype(_Tp{} /
    // _Up{});` in its body. The member is evaluated while the candidate's
    // `Op` is still being deduced: the call of the namespace-scope function
    // does not see it, and the alias's operand is typed as the body's.
    // (g++ writes the recursion's `decltype(V)` as `i`; these are EDG's
    // names, as cicc lists them.)
    expect![[r#"
        _Z10constant_vILi1EE
        _Z10constant_vILi2EE
        _Z10constant_vILi3EE
        _Z10constant_vILi4EE
        _Z4userv
        _ZN1SILi128EE1AI1PEEvRiT_17integral_constantIiLi4EE
        _ZN1SILi128EE1AI1PLi1EEEvRiT_17integral_constantIDtT0_EXT0_EE
        _ZN1SILi128EE1AI1PLi2EEEvRiT_17integral_constantIDtT0_EXT0_EE
        _ZN1SILi128EE1AI1PLi3EEEvRiT_17integral_constantIDtT0_EXT0_EE
        _ZNK1PclEii
    "#]]
    .assert_eq(&entities(
        "template <class T> inline constexpr bool is_signed_v = T(-1) < T(0);\n\
         template <class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template <class T, class U> constexpr T ceil_div(const T a, const U b) {\n\
           using P = decltype(T{} / U{});\n\
           if constexpr (is_signed_v<P>) { return (a + b - 1) / b; } else { return a; }\n\
         }\n\
         template <int V> using constant_t = integral_constant<decltype(V), V>;\n\
         template <int V> inline constexpr constant_t<V> constant_v{};\n\
         template <int X> struct S {\n\
           static constexpr int WARPS = ceil_div(X, 32);\n\
           template <class Op, int W> void A(int& a, Op op, constant_t<W>) { a = op(a, a); A(a, op, constant_v<W + 1>); }\n\
           template <class Op> void A(int&, Op, constant_t<WARPS>) {}\n\
         };\n\
         struct P { int operator()(int a, int b) const { return a + b; } };\n\
         void user() { int x = 0; S<128> s; s.A(x, P{}, constant_v<1>); }",
    ));
}

#[test]
fn reference_binding_and_identity_by_value_tie() {
    // CUB's `BlockScanRaking::ExclusiveScan(input, output, initial_value,
    // scan_op)` with an lvalue `T` initial value: `(T, T&, const T&,
    // ScanOp)` binds it to `const T&`, `(T, T&, ScanOp, CB&)` takes it by
    // value as `ScanOp = T`. [over.ics.rank]/3.2 orders reference bindings
    // among themselves only, so the conversions tie and partial ordering
    // picks the first (g++ 12's `nm`: `Ex<plus>(…, unsigned const&, plus)`).
    check(
        "template <class T> struct R {\n\
           template <class ScanOp> int Ex(T input, T& output, const T& init, ScanOp op) { return 1; }\n\
           template <class ScanOp> int Ex(T input, T& output, ScanOp op, T& agg) { return 2; }\n\
           template <class ScanOp, class CB> int Ex(T input, T& output, ScanOp op, CB& cb) { return 3; }\n\
         };\n\
         struct plus { unsigned operator()(unsigned a, unsigned b) const { return a + b; } };\n\
         int user(unsigned input, unsigned& output, unsigned init, plus op) { return R<unsigned>().Ex(input, output, init, op); }",
        "user",
        expect![[r#"
            _ZN1RIjE2ExI4plusEEijRjRKjT_
        "#]],
    );
}

#[test]
fn block_scope_using_declarations_name_functions_in_alias_template_arguments() {
    // CUB's `ThreadReduce`: `using cub::internal::enable_promotion;` then
    // `using PromT = _If<enable_promotion<Input, Op, AccumT>(), int, AccumT>;`.
    // The template argument is a call of the function template the
    // using-declaration brought into the block.
    expect![[r#"
        _Z1fIdEiT_
        _Z1fIsEiT_
        _Z1gIdET_S0_
        _Z1gIiET_S0_
        _Z4userv
    "#]]
    .assert_eq(&entities(
        "namespace ns { namespace internal { template <class T> constexpr bool enable() { return sizeof(T) <= 2; } } }\n\
         template <bool B, class T, class F> struct If_ { using type = T; };\n\
         template <class T, class F> struct If_<false, T, F> { using type = F; };\n\
         template <bool B, class T, class F> using If = typename If_<B, T, F>::type;\n\
         template <class T> T g(T t) { return t; }\n\
         template <class T> int f(T t) {\n\
           using ns::internal::enable;\n\
           using P = If<enable<T>(), int, T>;\n\
           return g<P>(t);\n\
         }\n\
         void user() { f<short>(1); f<double>(1.0); }",
    ));
}

#[test]
fn block_scope_enumerators_in_alias_template_arguments() {
    // CUB's `DeviceRadixSortSingleTileKernel`: `enum { BLOCK_THREADS =
    // Policy::BLOCK_THREADS, ITEMS_PER_THREAD = …, KEYS_ONLY = … };` then
    // `using BlockRadixSortT = BlockRadixSort<KeyT, BLOCK_THREADS, …>;` and
    // `BlockRadixSortT(temp_storage.sort).SortBlockedToStriped(…)`.
    expect![[r#"
        _Z1kI1PEvv
        _Z4userv
        _ZN1BILi256EE3runEv
        _ZN1BILi256EEC1Ei
        _ZN1P1TE
    "#]]
    .assert_eq(&entities(
        "template <int N> struct B { B(int) {} void run() {} };\n\
         template <class P> void k() {\n\
           enum { T = P::T, I = 2, K = T * I };\n\
           using BT = B<K>;\n\
           BT(1).run();\n\
         }\n\
         struct P { static constexpr int T = 128; };\n\
         void user() { k<P>(); }",
    ));
}
