//! Closure types and local entities (`infer/closure.rs`,
//! `instances/local.rs`): every expected name below is what g++ 12 writes
//! (`g++ -std=c++17 -c`, `nm`) for the same snippet.

use expect_test::{Expect, expect};

/// The names of the entities the unit requires that are local (`_ZZ…`) or
/// involve a closure type, in order.
fn check(text: &str, want: Expect) {
    check_in(cufront_base_db::LangStandard::Cxx20, text, want)
}

fn check_in(standard: cufront_base_db::LangStandard, text: &str, want: Expect) {
    let (db, tu) = super::db_with_standard(text, standard);
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        match name {
            Ok(n) if n.starts_with("_ZZ") || n.contains("Ul") => out.push_str(&format!("{n}\n")),
            Ok(_) => {}
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    want.assert_eq(&out);
}

/// A variable at namespace scope initialized by a lambda has the closure
/// type (`decltype(cmp)`, calls through it); its `<data-member-prefix>`
/// (`3cmpM`) is no substitution candidate for g++ 12 (`S1_` below is `T_`);
/// a captureless closure is trivial, and so POD, only from C++20 on (the
/// `bool = __is_pod(KC)` argument of libstdc++'s `_Rb_tree_impl`).
#[test]
fn lambdas_initializing_namespace_scope_variables() {
    let text = "template<class KC, bool = __is_pod(KC)> struct Impl { Impl(const KC&) {} };\n\
                template<class T> void g(T, T) {}\n\
                auto cmp = [](int a, int b) { return a > b; };\n\
                namespace N { auto h = [](int x) { return x; }; }\n\
                void user() { Impl<decltype(cmp)> s(cmp); g(cmp, cmp); g(N::h, N::h); N::h(2); }\n";
    check_in(
        cufront_base_db::LangStandard::Cxx17,
        text,
        expect![[r#"
            _ZNK3cmpMUliiE_clEii
            _ZNK1N1hMUliE_clEi
            _ZN4ImplIN3cmpMUliiE_ELb0EEC1ERKS0_
            _Z1gIN3cmpMUliiE_EEvT_S1_
            _Z1gIN1N1hMUliE_EEvT_S2_
        "#]],
    );
    check(
        text,
        expect![[r#"
            _ZNK3cmpMUliiE_clEii
            _ZNK1N1hMUliE_clEi
            _ZN4ImplIN3cmpMUliiE_ELb1EEC1ERKS0_
            _Z1gIN3cmpMUliiE_EEvT_S1_
            _Z1gIN1N1hMUliE_EEvT_S2_
        "#]],
    );
}

/// A closure as a class template argument, `unique_ptr`-style: the
/// deleter's `rr<D>::type::pointer` is a substitution failure for a closure
/// (no member types), so the primary `Ptr` is chosen; a closure is never
/// move-assignable before C++20 and, from C++20 on, only without captures;
/// it is empty unless it captures by name; binding `L&` to an `L&` is
/// valid. A `decltype` nested in a local's declared type names the body's
/// expression (`UP<float, decltype(&cf)>`). Names as g++ 12 writes them
/// (`-std=c++17` and `-std=c++20`).
#[test]
fn closures_as_deleters() {
    let text = "template<class T> struct rr { using type = T; };\n\
         template<class T> struct rr<T&> { using type = T; };\n\
         template<class...> using void_t = void;\n\
         template<class T, class D, class = void> struct Ptr { using type = T*; };\n\
         template<class T, class D> struct Ptr<T, D, void_t<typename rr<D>::type::pointer>> { using type = typename rr<D>::type::pointer; };\n\
         template<bool B> struct bc { static constexpr bool value = B; };\n\
         template<class T> struct is_move_assignable : bc<__is_assignable(T&, T&&)> {};\n\
         template<class T, class D, bool = is_move_assignable<D>::value, bool = __is_empty(D)> struct Data { Data(typename Ptr<T, D>::type, const D&) {} };\n\
         template<class T, class D> struct UP { Data<T, D> d; UP(typename Ptr<T, D>::type p, const D& x) : d(p, x) {} };\n\
         template<class T> struct K { K() {} };\n\
         extern \"C\" int cf(void*);\n\
         void user() {\n\
           auto freer = [](float* p) { (void)p; };\n\
           int n = 0;\n\
           auto counting = [&n](float*) { ++n; };\n\
           UP<float, decltype(freer)> a(nullptr, freer);\n\
           UP<float, decltype(counting)> b(nullptr, counting);\n\
           UP<float, decltype(&cf)> c(nullptr, &cf);\n\
           K<bc<__is_constructible(decltype(freer)&, decltype(freer)&)>> k;\n\
         }\n";
    let all = |standard| {
        let (db, tu) = super::db_with_standard(text, standard);
        super::entity_names(&db, tu)
    };
    expect![[r#"
        _Z4userv
        _ZN1KI2bcILb1EEEC1Ev
        _ZN2UPIfPFiPvEEC1EPfRKS2_
        _ZN2UPIfZ4uservEUlPfE0_EC1ES0_RKS1_
        _ZN2UPIfZ4uservEUlPfE_EC1ES0_RKS1_
        _ZN4DataIfPFiPvELb1ELb0EEC1EPfRKS2_
        _ZN4DataIfZ4uservEUlPfE0_Lb0ELb0EEC1ES0_RKS1_
        _ZN4DataIfZ4uservEUlPfE_Lb0ELb1EEC1ES0_RKS1_
        _ZZ4uservENKUlPfE0_clES_
        _ZZ4uservENKUlPfE_clES_
        cf
    "#]]
    .assert_eq(&all(cufront_base_db::LangStandard::Cxx17));
    expect![[r#"
        _Z4userv
        _ZN1KI2bcILb1EEEC1Ev
        _ZN2UPIfPFiPvEEC1EPfRKS2_
        _ZN2UPIfZ4uservEUlPfE0_EC1ES0_RKS1_
        _ZN2UPIfZ4uservEUlPfE_EC1ES0_RKS1_
        _ZN4DataIfPFiPvELb1ELb0EEC1EPfRKS2_
        _ZN4DataIfZ4uservEUlPfE0_Lb0ELb0EEC1ES0_RKS1_
        _ZN4DataIfZ4uservEUlPfE_Lb1ELb1EEC1ES0_RKS1_
        _ZZ4uservENKUlPfE0_clES_
        _ZZ4uservENKUlPfE_clES_
        cf
    "#]]
    .assert_eq(&all(cufront_base_db::LangStandard::Cxx20));
}

#[test]
fn closures_numbered_per_function() {
    check(
        "template<class F> void call(F f) { f(1); }\n\
         void h() {\n\
           auto a = [](int v) { return v; };\n\
           auto b = [](float v) { return v; };\n\
           call(a); call(b); a(2);\n\
           auto c = [](int v) { auto n = [](int w) { return w; }; return n(v); };\n\
           call(c);\n\
         }\n\
         int main() { int k = 0; auto m = [&k]() mutable { return k++; }; m(); h(); }",
        expect![[r#"
            _ZZ1hvENKUliE_clEi
            _ZZ1hvENKUlfE0_clEf
            _Z4callIZ1hvEUliE_EvT_
            _Z4callIZ1hvEUlfE0_EvT_
            _ZZZ1hvENKUliE1_clEiENKUliE_clEi
            _ZZ1hvENKUliE1_clEi
            _Z4callIZ1hvEUliE1_EvT_
            _ZZ4mainENUlvE_clEv
        "#]],
    );
}

#[test]
fn generic_lambdas_and_conversions() {
    check(
        "void h() {\n\
           auto gen = [](auto v, auto w) { return v + w; };\n\
           gen(1, 2.0); gen(1, 2);\n\
           auto r = [](const char *s, auto x) { return x; };\n\
           r(\"a\", 1.5f);\n\
           int (*fp)(int) = [](int x) { return x * 2; };\n\
         }",
        expect![[r#"
            _ZZ1hvENKUlT_T0_E_clIidEEDaS_S0_
            _ZZ1hvENKUlT_T0_E_clIiiEEDaS_S0_
            _ZZ1hvENKUlPKcT_E0_clIfEEDaS0_S1_
            _ZZ1hvENKUliE1_clEi
            _ZZ1hvENKUliE1_cvPFiiEEv
            _ZZ1hvENUliE1_4_FUNEi
        "#]],
    );
}

#[test]
fn local_statics() {
    check(
        "template<class T> int f() { auto l = []{ static int c; return ++c; }; return l(); }\n\
         void h() { static int x = 1; static int y; { static int x = 2; } f<int>(); f<long>(); }\n\
         extern \"C\" void cf() { static int z; }",
        expect![[r#"
            _ZZ1hvE1x
            _ZZ1hvE1y
            _ZZ1hvE1x_0
            _ZZ2cfE1z
            _ZZZ1fIiEivENKUlvE_clEvE1c
            _ZZ1fIiEivENKUlvE_clEv
            _ZZZ1fIlEivENKUlvE_clEvE1c
            _ZZ1fIlEivENKUlvE_clEv
        "#]],
    );
}

#[test]
fn calls_of_closures() {
    let text = "void h() {\n\
           auto gen = [](auto v, auto w) { return v + w; };\n\
           gen(1, 2.0); gen(1, 2);\n\
           auto r = [](const char *s, auto x) { return x; };\n\
           r(\"a\", 1.5f);\n\
           int (*fp)(int) = [](int x) { return x * 2; };\n\
         }";
    let (db, tu) = super::db_with(text);
    let f = super::body::fn_named(&db, tu, "h").expect("function");
    let r = crate::infer::infer(&db, crate::infer::InferOwner::Fn(f));
    expect![[r#"
        _ZZ1hvENKUlT_T0_E_clIidEEDaS_S0_
        _ZZ1hvENKUlT_T0_E_clIiiEEDaS_S0_
        _ZZ1hvENKUlPKcT_E0_clIfEEDaS0_S1_
        _ZZ1hvENKUliE1_clEi
        _ZZ1hvENKUliE1_cvPFiiEEv
        _ZZ1hvENUliE1_4_FUNEi
    "#]]
    .assert_eq(&crate::infer::render_calls(&db, &r));
}

#[test]
fn closure_into_a_function_wrapper() {
    // libstdc++'s `std::function` shape: a partial specialization on a
    // function type whose parameters are a pack (`function<_Res(_ArgTypes...)>`),
    // constructed from a closure.
    let (db, tu) = super::db_with(
        "template<typename _Signature> class function;\n\
         template<typename _Res, typename... _ArgTypes>\n\
         class function<_Res(_ArgTypes...)> {\n\
         public:\n\
           template<typename _Functor> function(_Functor&& __f) { }\n\
           _Res operator()(_ArgTypes... __args) const { return _Res(); }\n\
           ~function() {}\n\
         };\n\
         int main() { function<float(float)> twice = [](float v) { return 2 * v; }; twice(1.0f); }",
    );
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        match name {
            Ok(n) => out.push_str(&format!("{n}\n")),
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    // g++: _ZN8functionIFffEEC1IZ4mainEUlfE_EEOT_, _ZN8functionIFffEED1Ev, _ZNK8functionIFffEEclEf.
    expect![[r#"
        main
        _ZZ4mainENKUlfE_clEf
        _ZN8functionIFffEEC1IZ4mainEUlfE_EEOT_
        _ZNK8functionIFffEEclEf
        _ZN8functionIFffEED1Ev
    "#]]
    .assert_eq(&out);
}

#[test]
fn block_scope_namespace_alias_and_redeclared_templates() {
    // g++: _Z3remIiET_S0_S0_, _ZN1a1b1fE, _ZN1a1b1gEi, _ZNK1a1b1FclIdEEiT_
    // (`rem` is declared first and defined after: its body is the definition's).
    let (db, tu) = super::db_with(
        "namespace a { namespace b { struct F { template<class T> int operator()(T t) const { return 1; } };\n\
           inline constexpr F f{}; int g(int x) { return x; } } }\n\
         template<class T> T rem(T, T);\n\
         template<class U> U rem(U x, U y) { return x; }\n\
         int main() { namespace ab = a::b; int s = ab::g(1); s += ab::f(2.0); return rem(s, 1); }",
    );
    let f = super::body::fn_named(&db, tu, "main").expect("function");
    let r = crate::infer::infer(&db, crate::infer::InferOwner::Fn(f));
    expect![[r#"
        _ZN1a1b1gEi
        _ZN1a1b1fE
        _ZNK1a1b1FclIdEEiT_
        _Z3remIiET_S0_S0_
    "#]]
    .assert_eq(&crate::infer::render_calls(&db, &r));
    let rem = r.required.iter().find(|e| matches!(e, crate::Entity::FnInst(_))).copied();
    let defined = rem.and_then(|e| match e {
        crate::Entity::FnInst(i) => crate::instances::fn_definition(&db, i.decl(&db)),
        _ => None,
    });
    assert!(defined.is_some(), "the definition of `rem` is found");
}

#[test]
fn init_captures() {
    // g++: _ZNK1S1mEv, _ZZ4mainENKUlvE_clEv.
    check(
        "struct S { int m() const { return 1; } };\n\
         int main() { S s; auto l = [t = s, &r = s]() { return t.m() + r.m(); }; return l(); }",
        expect![[r#"
            _ZZ4mainENKUlvE_clEv
        "#]],
    );
    let (db, tu) = super::db_with(
        "struct S { int m() const { return 1; } };\n\
         int main() { S s; auto l = [t = s, &r = s]() { return t.m() + r.m(); }; return l(); }",
    );
    let f = super::body::fn_named(&db, tu, "main").expect("function");
    let r = crate::infer::infer(&db, crate::infer::InferOwner::Fn(f));
    expect![[r#"
        _ZNK1S1mEv
        _ZZ4mainENKUlvE_clEv
    "#]]
    .assert_eq(&crate::infer::render_calls(&db, &r));
}

#[test]
fn generic_lambda_packs() {
    // `auto...` parameters: the closure's name has the declared pattern
    // as a pack expansion (`UlDpT_E_`, `UliDpPT_E0_`).
    check(
        "template <class F, class... A> auto app(F f, A... a) { return f(a...); }\n\
         template <class... T> int g(T... t) { return app([](auto *&...p) { return sizeof...(p); }, t...); }\n\
         int h() {\n\
           int x = 1; double y = 2;\n\
           auto l = [](auto... v) { return (v + ... + 0); };\n\
           int *px = &x; double *py = &y;\n\
           return app(l, 1, 2) + app([x](int a, auto *...q) { return a; }, 3, px, py) + g(px, py);\n\
         }",
        expect![[r#"
            _Z3appIZ1hvEUlDpT_E_JiiEEDaT_DpT0_
            _Z3appIZ1hvEUliDpPT_E0_JiPiPdEEDaT_DpT0_
            _ZZ1hvENKUlDpT_E_clIJiiEEEDaS0_
            _ZZ1hvENKUliDpPT_E0_clIJidEEEDaiS1_
            _Z3appIZ1gIJPiPdEEiDpT_EUlDpRPS3_E_JS1_S2_EEDaT_DpT0_
            _ZZ1gIJPiPdEEiDpT_ENKUlDpRPS2_E_clIJidEEEDaS6_
        "#]],
    );
}

/// A unit compiled with `--extended-lambda` (it declares the sentinel), with
/// the little of `<utility>` the wrappers use.
const EXTENDED: &str = "namespace std { template<class T> struct remove_reference { typedef T type; };\n\
    template<class T> struct remove_reference<T&> { typedef T type; };\n\
    template<class T> typename remove_reference<T>::type&& move(T&& t) { return static_cast<typename remove_reference<T>::type&&>(t); }\n\
    template<class T> T&& forward(typename remove_reference<T>::type& t) { return static_cast<T&&>(t); } }\n\
    struct __attribute__((device_builtin)) __nv_lambda_preheader_injection { };\n";

#[test]
fn extended_lambdas() {
    // The names g++ gives the same program with cudafe++'s wrappers
    // (spec 30 §5.2) and its real preamble: `_ZN12_GLOBAL__N_1…` is the
    // preamble's own anonymous namespace.
    let text = format!(
        "{EXTENDED}template <typename F> void parallel_for(int n, F f) {{}}\n\
         template <typename F> void call(F f) {{ f(1.5f); }}\n\
         struct S {{ int a; void run(); }};\n\
         void S::run() {{ parallel_for(1, [*this] __attribute__((device)) (int i) {{ return a; }}); }}\n\
         int main() {{ float *x = 0; const float s = 1;\n\
           parallel_for(1, [=] __attribute__((device)) (int i) {{ x[i] = s; }});\n\
           auto c = [] __attribute__((host)) __attribute__((device)) (float v) {{ return v; }};\n\
           c(1.5f); call(c);\n\
           int k = 3;\n\
           auto d = [k] __attribute__((host)) __attribute__((device)) (float v) {{ return v + k; }};\n\
           call(d);\n\
         }}"
    );
    let (db, tu) = super::db_with(&text);
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        match name {
            Ok(n) if n.contains("__nv") || n.contains("Ul") => out.push_str(&format!("{n}\n")),
            Ok(_) => {}
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    expect![[r#"
        _ZN17__nv_dl_wrapper_tI11__nv_dl_tagIM1SFvvEXadL_ZNS1_3runEvEELj1EEJKS1_EEC1ES4_S1_
        _Z12parallel_forI17__nv_dl_wrapper_tI11__nv_dl_tagIM1SFvvEXadL_ZNS2_3runEvEELj1EEJKS2_EEEviT_
        _ZN17__nv_dl_wrapper_tI11__nv_dl_tagIPFivEXadL_Z4mainEELj1EEJPfKfEEC1ES3_S4_f
        _Z12parallel_forI17__nv_dl_wrapper_tI11__nv_dl_tagIPFivEXadL_Z4mainEELj1EEJPfKfEEEviT_
        _ZZ4mainENKUlfE_clEf
        _ZZ4mainENKUlfE_cvPFffEEv
        _ZZ4mainENUlfE_4_FUNEf
        error: `args`: a pack of the enclosing specialization in decltype
        _ZN18__nv_hdl_wrapper_tILb0ELb1ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj2EEFffEJEEC1IZ4mainEUlfE_EES3_OT_
        _ZNK18__nv_hdl_wrapper_tILb0ELb1ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj2EEFffEJEEclEf
        _Z4callI18__nv_hdl_wrapper_tILb0ELb1ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj2EEFffEJEEEvT_
        _ZZ4mainENKUlfE0_clEf
        error: `args`: a pack of the enclosing specialization in decltype
        _ZN18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEEC1IZ4mainEUlfE0_EES3_OT_i
        _Z4callI18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEEEvT_
        _ZN18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEEC1ERKS5_
        _ZN18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEED1Ev
        _ZSt4moveIRZ4mainEUlfE_EONSt16remove_referenceIT_E4typeEOS3_
        _ZN12_GLOBAL__N_115__nv_hdl_helperI11__nv_dl_tagIPFivEXadL_Z4mainEELj2EEfJfEE18fp_noobject_callerE
        _ZSt4moveIRZ4mainEUlfE0_EONSt16remove_referenceIT_E4typeEOS3_
        _ZN12_GLOBAL__N_115__nv_hdl_helperI11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEfJfEE9fp_copierE
        _ZN18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEE7managerIZ4mainEUlfE0_E7do_copyEPv
        _ZN12_GLOBAL__N_115__nv_hdl_helperI11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEfJfEE10fp_deleterE
        _ZN18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEE7managerIZ4mainEUlfE0_E9do_deleteEPv
        _ZN12_GLOBAL__N_115__nv_hdl_helperI11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEfJfEE9fp_callerE
        _ZN18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEE7managerIZ4mainEUlfE0_E7do_callEPvf
        _ZNK18__nv_hdl_wrapper_tILb0ELb0ELb0E11__nv_dl_tagIPFivEXadL_Z4mainEELj3EEFffEJiEEclEf
    "#]].assert_eq(&out);
}

#[test]
fn decltype_of_a_closure_call_is_known() {
    // `std::function<float(float)> f = lambda;`: the converting
    // constructor's `invoke_result<F&, A...>::type` needs the closure's
    // `operator()` return type; it is known, so the constructor template is
    // viable (g++ 12: `_ZNSt8functionIFffEEC1IZ4uservEUlfE_fEET_`).
    super::closure(
        "namespace std {\n\
         template<class T> T&& declval();\n\
         template<class F, class... A> struct invoke_result { typedef decltype(declval<F>()(declval<A>()...)) type; };\n\
         template<class Sig> struct function;\n\
         template<class R, class... A> struct function<R(A...)> {\n\
           function(const function&) {}\n\
           template<class F, class = typename invoke_result<F&, A...>::type> function(F f) {}\n\
         };\n\
         }\n\
         void user() { std::function<float(float)> f = [](float v) { return 2 * v; }; }\n",
        expect![[r#"
            _Z4userv
            _ZZ4uservENKUlfE_clEf
            _ZNSt8functionIFffEEC1IZ4uservEUlfE_fEET_
        "#]],
    );
}

#[test]
fn generic_lambda_packs_expand_per_element() {
    // `auto*&... col` and `auto... v`: the pack expansions in the bodies
    // are inferred once per element (g++ 12 emits `alloc<float>`,
    // `alloc<double>` and `total<int, int>`).
    super::closure(
        "template<class T> int alloc(T** p, unsigned long n) { return 0; }\n\
         template<class... T> int total(T... xs) { return (0 + ... + xs); }\n\
         template<class F, class... T> void apply_all(F f, T&... xs) { f(xs...); }\n\
         void user() {\n\
           float* a; double* b; int i = 1, j = 2;\n\
           apply_all([](auto*&... col) { (alloc(&col, 4ul), ...); }, a, b);\n\
           apply_all([](auto... v) { return total(v...); }, i, j);\n\
         }\n",
        expect![[r#"
            _Z4userv
            _Z9apply_allIZ4uservEUlDpRPT_E_JPfPdEEvT_DpRT0_
            _Z9apply_allIZ4uservEUlDpT_E0_JiiEEvT_DpRT0_
            _ZZ4uservENKUlDpRPT_E_clIJfdEEEDaS2_
            _ZZ4uservENKUlDpT_E0_clIJiiEEEDaS0_
            _Z5allocIfEiPPT_m
            _Z5allocIdEiPPT_m
            _Z5totalIJiiEEiDpT_
        "#]],
    );
}

#[test]
fn locals_of_constructors_and_destructors_use_the_unified_variant() {
    // g++ names a closure or static local of a constructor (destructor)
    // by `C4` (`D4`), whichever variant the object holds.
    check(
        "template<class F> void call(F f) { f(); }\n\
         struct S { S(int x) { static int k = x; call([&]{ k++; }); } ~S() { static int j; call([]{ j++; }); } };\n\
         template<class T> struct U { U() { call([]{}); } };\n\
         void user() { S s(1); U<int> u; }",
        expect![[r#"
            _ZZN1SC4EiE1k
            _ZZN1SC4EiENKUlvE_clEv
            _Z4callIZN1SC4EiEUlvE_EvT_
            _ZZN1UIiEC4EvENKUlvE_clEv
            _Z4callIZN1UIiEC4EvEUlvE_EvT_
            _ZZN1SD4EvE1j
            _ZZN1SD4EvENKUlvE_clEv
            _Z4callIZN1SD4EvEUlvE_EvT_
        "#]],
    );
}

#[test]
fn lambda_parameters_see_block_scope_aliases() {
    // The aliases declared before a lambda name its parameter types (and a
    // nested lambda's, declared inside the enclosing one's body).
    check(
        "template <class K, class V> struct Pair { K key; V val; };\n\
         template<class F> void call(F f) { Pair<int, float> p{}; f(p, p); }\n\
         void h() {\n\
           using KV = Pair<int, float>;\n\
           call([](const KV& a, const KV& b) { return a.key < b.key; });\n\
           {\n\
             typedef long L;\n\
             auto g = [](L x) { using M = L; return [](M y) { return y; }(x); };\n\
             g(1);\n\
           }\n\
         }\n\
         int main() { h(); }",
        expect![[r#"
            _ZZ1hvENKUlRK4PairIifES2_E_clES2_S2_
            _Z4callIZ1hvEUlRK4PairIifES3_E_EvT_
            _ZZZ1hvENKUllE0_clElENKUllE_clEl
            _ZZ1hvENKUllE0_clEl
        "#]],
    );
}

#[test]
fn decltype_of_a_local_closure_in_a_non_template_body() {
    // `Prep<decltype(l)> p(l);` in `main`: the local's type is found under
    // its decltype text in any body, not only a template's (g++ 12 nm).
    check(
        "template<class F> struct Prep { F f; Prep(F g) : f(g) {} ~Prep() {} };\n\
         int main() { int k = 2; auto l = [k](int v) { return v * k; }; Prep<decltype(l)> p(l); return p.f(3); }",
        expect![[r#"
            _ZZ4mainENKUliE_clEi
            _ZN4PrepIZ4mainEUliE_EC1ES0_
            _ZN4PrepIZ4mainEUliE_ED1Ev
        "#]],
    );
}
