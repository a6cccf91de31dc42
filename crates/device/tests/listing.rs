//! Device listings of small units, as snapshots: names spelled as cicc
//! spells them where g++ differs.

use std::sync::Arc;

use cufront_base_db::{LangOptions, RootDatabase, new_options, new_translation_unit};
use cufront_device::{keep, listing};
use expect_test::expect;

fn listing_of(text: &str) -> String {
    let db = RootDatabase::new();
    let opts = new_options(&db, LangOptions { device_view: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "x.ii".into(), Arc::from(text), opts);
    let kopts = keep::KeepOptions { module_id: "_0a1b2c3d_4_x_cu_k".into(), ..Default::default() };
    listing::listing(&db, tu, &kopts)
}

#[test]
fn value_pack_expansion_in_template_arguments() {
    // `integer_sequence<size_t, Is...>` in a device function template's
    // signature: cicc writes `JXT0_EE` (g++: `JXspT0_EE`); a type pack keeps
    // its `Dp` (`JDpT_E`) on both.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kv (a kernel)
        function _Z5scaleIJifEJLm0ELm1EEEvR3SoaIJDpT_EE16integer_sequenceImJXT0_EEE (referenced by _Z1kv)
    "#]]
    .assert_eq(&listing_of(
        "template <class T, T... Is> struct integer_sequence {};\n\
         template <class... Ts> struct Soa {};\n\
         template <class... Ts, unsigned long... Is>\n\
         __attribute__((device)) void scale(Soa<Ts...>& s, integer_sequence<unsigned long, Is...>) {}\n\
         __attribute__((global)) void k() { Soa<int, float> s; scale(s, integer_sequence<unsigned long, 0, 1>{}); }\n",
    ));
}

#[test]
fn recursion_without_a_selected_end_stops_at_the_pending_limit() {
    // `r<N>` calls `r<N + 1>` with no end (EDG stops such a program at 200
    // pending instantiations of one template): the walk lists 200 instances
    // of `r`, not as many as the walk holds.
    let text = listing_of(
        "template <int N> __attribute__((device)) void r() { r<N + 1>(); }\n\
         __attribute__((global)) void k() { r<0>(); }\n",
    );
    let instances: Vec<&str> = text.lines().filter(|l| l.starts_with("function _Z1rILi")).collect();
    assert_eq!(instances.len(), 200, "{text}");
    assert!(instances.last().is_some_and(|l| l.starts_with("function _Z1rILi199EEvv ")), "{text}");
}

#[test]
fn namespace_scope_shared_variables() {
    // As cicc keeps them (checked with nvcc --keep's .cudafe1.gpu): a
    // definition with external linkage always; an `extern` declaration
    // or a `static` one only when needed code refers to it.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPf (a kernel)
        variable ext_used (a namespace-scope device variable)
        variable def_unused (a namespace-scope device variable)
        variable _ZN2ns11ns_ext_usedE (a namespace-scope device variable)
    "#]]
    .assert_eq(&listing_of(
        "extern __attribute__((shared)) float ext_used[];\n\
         extern __attribute__((shared)) float ext_unused[];\n\
         __attribute__((shared)) int def_unused;\n\
         static __attribute__((shared)) int sdef_unused;\n\
         namespace ns { extern __attribute__((shared)) char ns_ext_used[]; }\n\
         __attribute__((global)) void k(float *p) { p[0] = ext_used[0] + ns::ns_ext_used[1]; }\n",
    ));
}

#[test]
fn launches_in_lambdas_fold_constant_configurations() {
    // As cicc lists them: `dim3`'s constexpr constructor is folded for a
    // launch configuration of constants, in a function or in a lambda's
    // body alike, and called (so kept for the device) for a runtime one.
    let unit = |launches: &str| {
        format!(
            "struct dim3 {{ unsigned x, y, z;\n\
             __attribute__((host)) __attribute__((device)) constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1)\n\
             : x(a), y(b), z(c) {{}} }};\n\
             extern \"C\" unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, unsigned long s = 0, void* st = 0);\n\
             __attribute__((global)) void k() {{}}\n\
             template <class F> void run(F f) {{ f(); }}\n\
             {launches}\n"
        )
    };
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kv (a kernel)
    "#]]
    .assert_eq(&listing_of(&unit(
        "void direct() { k<<<1, 32>>>(); }\n\
         void lambda() { run([] { k<<<1, 32>>>(); }); }",
    )));
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kv (a kernel)
        function _ZN4dim3C1Ejjj (referenced by _Z6lambdai)
        function _ZN4dim3C2Ejjj (referenced by _Z6lambdai)
    "#]]
    .assert_eq(&listing_of(&unit("void lambda(int n) { run([n] { k<<<n, 32>>>(); }); }")));
}

#[test]
fn qualified_overloaded_callees_in_decltype_keep_their_qualifiers() {
    // libcu++'s `plus<void>::operator()` returns `decltype(::cuda::std::
    // __4::forward<_T1>(__t) + …)`: cicc writes the overloaded callee with
    // its qualifiers (`gssr4cuda3std3__4E7forwardIT_E`) where g++ (the
    // host name) writes `7forwardIT_E` (checked with the real nvcc).
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi (a kernel)
        function _ZNK4plusclIRiS1_EEDTplclgssr2nsE7forwardIT_Efp_Eclgssr2nsE7forwardIT0_Efp0_EEOS2_OS3_ (referenced by _Z1kPi)
        function _ZN2ns7forwardIRiEEOT_RNS_2rrIS2_E4typeE (referenced by _ZNK4plusclIRiS1_EEDTplclgssr2nsE7forwardIT_Efp_Eclgssr2nsE7forwardIT0_Efp0_EEOS2_OS3_)
    "#]]
    .assert_eq(&listing_of(
        "namespace ns {\n\
         template <class T> struct rr { typedef T type; };\n\
         template <class T> struct rr<T&> { typedef T type; };\n\
         template <class T> __attribute__((host)) __attribute__((device)) constexpr T&& forward(typename rr<T>::type& t) { return static_cast<T&&>(t); }\n\
         template <class T> __attribute__((host)) __attribute__((device)) constexpr T&& forward(typename rr<T>::type&& t) { return static_cast<T&&>(t); }\n\
         }\n\
         struct plus { template <class A, class B> __attribute__((device)) auto operator()(A&& a, B&& b) const\n\
           -> decltype(::ns::forward<A>(a) + ::ns::forward<B>(b)) { return ::ns::forward<A>(a) + ::ns::forward<B>(b); } };\n\
         __attribute__((global)) void k(int* p) { p[0] = plus{}(p[1], p[2]); }\n",
    ));
}

#[test]
fn calls_in_template_arguments_of_return_types_keep_their_qualifiers() {
    // CUB's `to_array` returns `::cuda::std::array<CastType,
    // cub::detail::static_size_v<Input>()>`: cicc writes the call in the
    // template argument with the callee qualified as written
    // (`clsr1dE2szIT0_EE`, checked with the real nvcc); `d::sz` itself is
    // evaluated, not referenced.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi (a kernel)
        function _Z1fIi1PE1AIT_Xclsr1dE2szIT0_EEEERKS3_ (referenced by _Z1kPi)
    "#]]
    .assert_eq(&listing_of(
        "namespace d { template <class T> __attribute__((device)) constexpr unsigned long sz() { return sizeof(T) / 4; } }\n\
         template <class T, unsigned long N> struct A { T v[N]; };\n\
         template <class C, class In> __attribute__((device)) A<C, d::sz<In>()> f(const In& x) { return A<C, d::sz<In>()>{}; }\n\
         struct P { int a, b; };\n\
         __attribute__((global)) void k(int* p) { P q{1, 2}; p[0] = f<int>(q).v[0]; }\n",
    ));
}

#[test]
fn nvvm_builtins_called_without_a_declaration_are_listed() {
    // The toolkit's `__all_sync` returns `__nvvm_vote_all_sync(mask, pred)`,
    // a builtin cicc's front end declares itself; its listing declares
    // each one used (`__device_builtin__ … int __nvvm_vote_all_sync(unsigned,
    // int);`) under its C name.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi (a kernel)
        function _ZN27_INTERNAL_0a1b2c3d_4_x_cu_k8all_syncEji (referenced by _Z1kPi)
        function __nvvm_vote_all_sync (referenced by _ZN27_INTERNAL_0a1b2c3d_4_x_cu_k8all_syncEji)
    "#]]
    .assert_eq(&listing_of(
        "static __inline__ __attribute__((device)) int all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }\n\
         __attribute__((global)) void k(int* p) { p[0] = all_sync(~0u, p[1]); }\n",
    ));
}

#[test]
fn variable_templates_and_qualified_classes_in_dependent_expressions() {
    // In a dependent return type EDG writes a variable template
    // specialization as its template, an entity without arguments
    // (`L_ZNS_6is_a_vEE`, an expr-primary: no `X … E` around it alone),
    // and a namespace-qualified class qualifier under `sr` level by level,
    // none a substitution candidate (`sr2ns6detail3canIT_EE5value`); g++
    // writes `6is_a_vIT_E` and `srNS_6detail3canIT_EE5value`. Both names
    // are cicc's (`nvcc --keep`, CUDA 13.0).
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kv (a kernel)
        function _ZN2ns1fIiEENS_9enable_ifIXaasr2ns6detail3canIT_EE5valueL_ZNS_6is_a_vEEEvE4typeERS2_ (referenced by _Z1kv)
        function _ZN2ns1gIiEENS_2IfIL_ZNS_6is_a_vEEEET_ (referenced by _Z1kv)
    "#]]
    .assert_eq(&listing_of(
        "namespace ns {\n\
         template <class T> constexpr bool is_a_v = true;\n\
         template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { typedef T type; };\n\
         namespace detail { template <class T> struct can { static constexpr bool value = true; }; }\n\
         template <class T>\n\
         __attribute__((device)) typename enable_if<detail::can<T>::value && is_a_v<T>>::type f(T&) {}\n\
         template <bool B> struct If {};\n\
         template <class T>\n\
         __attribute__((device)) If<is_a_v<T>> g(T) { return {}; }\n\
         }\n\
         __attribute__((global)) void k() { int x; ns::f(x); ns::g(x); }\n",
    ));
}

#[test]
fn pack_expansions_in_the_class_of_a_qualified_name() {
    // `detail::can<T, A...>::value` in a dependent return type: the pack
    // argument is an expansion (`JDpT0_E`; it was `JT0_E`), and `T0_` is a
    // substitution candidate for the parameter pack after it (`DpOS3_`).
    // cicc's name (`nvcc --keep`, CUDA 13.0).
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kv (a kernel)
        function _ZN2ns1hIiJidEEENS_9enable_ifIXsr2ns6detail3canIT_JDpT0_EEE5valueEvE4typeEPS2_DpOS3_ (referenced by _Z1kv)
    "#]]
    .assert_eq(&listing_of(
        "namespace ns {\n\
         namespace detail { template <class T, class... A> struct can { static constexpr bool value = true; }; }\n\
         template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { typedef T type; };\n\
         template <class T, class... A>\n\
         __attribute__((device)) typename enable_if<detail::can<T, A...>::value>::type h(T*, A&&...) {}\n\
         }\n\
         __attribute__((global)) void k() { int x; ns::h(&x, 1, 2.0); }\n",
    ));
}

#[test]
fn the_implicit_copy_constructor_beats_a_constructor_template() {
    // thrust's `normal_iterator(const normal_iterator<O>&, enable_if<…>* = 0)`
    // deduced to `const NI<int*>&` for a copy: the same conversion as the
    // implicit copy constructor, which wins as a non-template (cicc lists
    // no instance of the template; `nvcc --keep`, CUDA 13.0).
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi (a kernel)
        function _Z4pass2NIIPiE (defined in the unit, external, not inline)
        function _ZN2NIIPiEC1ES0_ (referenced by _Z1kPi)
        function _ZN2NIIPiEC2ES0_ (referenced by _Z1kPi)
    "#]]
    .assert_eq(&listing_of(
        "template <bool B, class T = void> struct enable_if {};\n\
         template <class T> struct enable_if<true, T> { typedef T type; };\n\
         template <class A, class B> struct is_conv { static constexpr bool value = true; };\n\
         template <class It> struct NI {\n\
           It b;\n\
           __attribute__((host, device)) NI() {}\n\
           __attribute__((host, device)) explicit NI(It x) : b(x) {}\n\
           template <class O>\n\
           __attribute__((host, device)) NI(const NI<O>& o, typename enable_if<is_conv<O, It>::value>::type* = 0) : b(o.b) {}\n\
         };\n\
         __attribute__((device)) NI<int*> pass(NI<int*> v) { return v; }\n\
         __attribute__((global)) void k(int* p) { NI<int*> a(p); NI<int*> c(a); NI<int*> d = pass(c); (void)d; }\n",
    ));
}

#[test]
fn generic_lambda_parameters_are_the_lambdas_own() {
    // A generic lambda's `auto` parameters are template parameters of its
    // own: cicc never substitutes them by the enclosing template's `T_`,
    // `T0_` (`UlT_DpT0_E_`, and the call operator's `DaS5_S7_` names them
    // as new candidates), where g++ writes `UlS1_DpS2_E_` and `DaS1_S5_`.
    // Names checked against cicc's `.cudafe1.gpu`.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPfPi (a kernel)
        function _Z3runI2opJfiEEvT_DpPT0_ (referenced by _Z1kPfPi)
        function _ZZ3runI2opJfiEEvT_DpPT0_ENKUlT_DpT0_E_clIbJPfPiEEEDaS5_S7_ (referenced by _Z3runI2opJfiEEvT_DpPT0_)
        function _Z2idIfERT_S1_ (referenced by _ZZ3runI2opJfiEEvT_DpPT0_ENKUlT_DpT0_E_clIbJPfPiEEEDaS5_S7_)
        function _Z2idIiERT_S1_ (referenced by _ZZ3runI2opJfiEEvT_DpPT0_ENKUlT_DpT0_E_clIbJPfPiEEEDaS5_S7_)
        function _ZNK2opclEfi (referenced by _ZZ3runI2opJfiEEvT_DpPT0_ENKUlT_DpT0_E_clIbJPfPiEEEDaS5_S7_)
    "#]]
    .assert_eq(&listing_of(
        "template <class T> __attribute__((device)) T& id(T& x) { return x; }\n\
         template <class F, class... T> __attribute__((device)) void run(F f, T*... ins) {\n\
           auto p = [&](auto full, auto... ins2) { if (full) f(id(ins2[0])...); };\n\
           p(true, ins...);\n\
         }\n\
         struct op { __attribute__((device)) float operator()(float a, int b) const { return a + b; } };\n\
         __attribute__((global)) void k(float* a, int* b) { run(op{}, a, b); }\n",
    ));
}

#[test]
fn generic_lambda_parameters_as_later_candidates() {
    // The lambda's `T_` is a candidate of its own, written in full even
    // where the enclosing kernel's `T_` is one (`UlT_E_`); a later `T_`
    // names the latest (`EvS3_S4_T0_`, `DaS4_`). Checked against cicc.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kIfEvPKT_PS0_ (a kernel template instance the unit reaches)
        function _Z5applyIfZ1kIfEvPKT_PS1_EUlT_E_EvS3_S4_T0_ (referenced by _Z1kIfEvPKT_PS0_)
        function _ZZ1kIfEvPKT_PS0_ENKUlT_E_clIfEEDaS4_ (referenced by _Z5applyIfZ1kIfEvPKT_PS1_EUlT_E_EvS3_S4_T0_)
    "#]]
    .assert_eq(&listing_of(
        "template <class T, class F> __attribute__((device)) void apply(const T* a, T* b, F f) { b[0] = f(a[0]); }\n\
         template <class T> __attribute__((global)) void k(const T* a, T* b) { apply(a, b, [](auto x) { return x * 2; }); }\n\
         template __attribute__((global)) void k<float>(const float*, float*);\n",
    ));
}

#[test]
fn pack_expansions_in_a_generic_lambdas_parameters() {
    // EDG: `OT_` written in the lambda's `DpOT_` is no candidate for a
    // later `OT_` (`EvOS2_OT0_`: the `T_` alone is, from `DpT_`); the
    // call operator names its own `DpOT_` (`DaS6_`). Checked against cicc.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kv (a kernel)
        function _Z3rrcIJifEE3tupIJDpT_EES3_ (referenced by _Z1kv)
        function _Z10apply_implIZ3rrcIJifEE3tupIJDpT_EES4_EUlDpOT_E_RS1_IJifEEEvOS2_OT0_ (referenced by _Z3rrcIJifEE3tupIJDpT_EES3_)
        function _ZZ3rrcIJifEE3tupIJDpT_EES3_ENKUlDpOT_E_clIJifEEEDaS6_ (referenced by _Z10apply_implIZ3rrcIJifEE3tupIJDpT_EES4_EUlDpOT_E_RS1_IJifEEEvOS2_OT0_)
    "#]]
    .assert_eq(&listing_of(
        "template <class... Ts> struct tup {};\n\
         template <class Fn, class Tp> __attribute__((device)) void apply_impl(Fn&& f, Tp&& t) { f(1, 2.0f); }\n\
         template <class... Ts> __attribute__((device)) tup<Ts...> rrc(tup<Ts...> t) { apply_impl([](auto&&... xs) { return 0; }, t); return t; }\n\
         __attribute__((global)) void k() { rrc(tup<int, float>{}); }\n",
    ));
}

#[test]
fn internal_functions_named_by_template_arguments() {
    // A function named only by a template argument is kept (`F(x)` calls
    // it), and an internal-linkage one is spelled with its device name in
    // the argument too; a `static` function with C language linkage that
    // comes before an `extern "C"` redeclaration (the runtime's device
    // `cudaMalloc`) is internal there, with its C++ encoding. Checked with
    // nvcc --keep's .cudafe1.gpu.
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi (a kernel)
        function _ZN3resIXadL_ZN27_INTERNAL_0a1b2c3d_4_x_cu_k10cudaMallocEPPvmEEE3getEm (referenced by _Z1kPi)
        function _ZN3appIXadL_ZN27_INTERNAL_0a1b2c3d_4_x_cu_k6helperEiEEE3runEi (referenced by _Z1kPi)
        function _ZN27_INTERNAL_0a1b2c3d_4_x_cu_k10cudaMallocEPPvm (referenced by _ZN3resIXadL_ZN27_INTERNAL_0a1b2c3d_4_x_cu_k10cudaMallocEPPvmEEE3getEm)
        function _ZN27_INTERNAL_0a1b2c3d_4_x_cu_k6helperEi (referenced by _ZN3appIXadL_ZN27_INTERNAL_0a1b2c3d_4_x_cu_k6helperEiEEE3runEi)
    "#]]
    .assert_eq(&listing_of(
        "extern \"C\" { static __attribute__((device)) int cudaMalloc(void **p, unsigned long n) { *p = 0; return (int)n; } }\n\
         extern \"C\" __attribute__((host)) int cudaMalloc(void **p, unsigned long n);\n\
         template <int (*Alloc)(void **, unsigned long)> struct res {\n\
           __attribute__((host)) __attribute__((device)) void *get(unsigned long n) { void *p = 0; Alloc(&p, n); return p; }\n\
         };\n\
         static __attribute__((device)) int helper(int x) { return x + 1; }\n\
         template <int (*F)(int)> struct app { __attribute__((device)) int run(int x) { return F(x); } };\n\
         __attribute__((global)) void k(int *out) { res<cudaMalloc> r; out[0] = r.get(4) != 0; app<helper> a; out[1] = a.run(2); }\n",
    ));
}
