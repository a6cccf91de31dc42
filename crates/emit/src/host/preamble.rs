//! The extended-lambda preamble (spec 30 §5.1, Appendix A): the wrapper
//! templates that rewritten lambdas name, printed where `cuda_runtime.h`
//! declares the `__nv_lambda_preheader_injection` sentinel.
//!
//! The text is an interface: cicc's stub names the same templates, so it is
//! reproduced byte for byte (quirks such as double spaces included). It
//! depends only on C++17 (the `noexcept` trait specializations) and on the
//! capture counts of the translation unit's device lambdas (counts > 0) and
//! host-device lambdas (0 included); each count gets its specializations once.

use std::collections::BTreeSet;
use std::fmt::Write;

/// The preamble, from `# 1 "nvcc_internal_extended_lambda_implementation"`
/// up to (not including) the sentinel's `#if 0`.
pub fn preamble(dl_counts: &BTreeSet<usize>, hdl_counts: &BTreeSet<usize>, cxx17: bool) -> String {
    let mut o = String::with_capacity(16 * 1024);
    o.push_str("# 1 \"nvcc_internal_extended_lambda_implementation\"\n");
    o.push_str(
        "#define __NV_LAMBDA_WRAPPER_HELPER(X, Y) decltype(X), Y\n\
         template <typename T>\nstruct __nvdl_remove_ref { typedef T type; };\n\n\
         template<typename T>\nstruct __nvdl_remove_ref<T&> { typedef T type; };\n\n\
         template<typename T>\nstruct __nvdl_remove_ref<T&&> { typedef T type; };\n\n\
         template <typename T, typename... Args>\nstruct __nvdl_remove_ref<T(&)(Args...)> {\n  typedef T(*type)(Args...); \n};\n\n\
         template <typename T>\nstruct __nvdl_remove_const { typedef T type; };\n\n\
         template <typename T>\nstruct __nvdl_remove_const<T const> { typedef T type; };\n\n",
    );
    o.push_str("\ntemplate <typename U, U func, unsigned>\nstruct __nv_dl_tag { };\n");
    o.push_str(
        "template <typename T>\nstruct __nv_lambda_array_wrapper { \n\
         static_assert(sizeof(T) == 0, \"nvcc internal error: unexpected failure in capturing array variable\");\n};\n",
    );
    let dims = |r: usize, f: &dyn Fn(usize) -> String| (1..=r).map(f).collect::<String>();
    for r in 1..=7 {
        let p = dims(r, &|d| format!(", size_t D{d}"));
        let d = dims(r, &|d| format!("[D{d}]"));
        let i = dims(r, &|d| format!("[i{d}]"));
        let loops = dims(r, &|d| format!("\nfor(size_t i{d} = 0; i{d}  < D{d}; ++i{d})"));
        let _ = write!(
            o,
            "\ntemplate<typename T{p}>\nstruct __nv_lambda_array_wrapper<T {d}> {{T arr{d};\n\
             __nv_lambda_array_wrapper(const T in{d}) {{{loops} arr{i} = in{i};\n}}\n}};\n"
        );
    }
    o.push_str("\ntemplate <typename T>\nstruct __nv_lambda_field_type {\ntypedef T type;};");
    for r in 1..=7 {
        let p = dims(r, &|d| format!(", size_t D{d}"));
        let d = dims(r, &|d| format!("[D{d}]"));
        for c in ["", "const "] {
            let _ = write!(
                o,
                "\ntemplate<typename T{p}>\nstruct __nv_lambda_field_type<{c}T {d}> {{\ntypedef {c}__nv_lambda_array_wrapper<T {d}> type;\n}};\n"
            );
        }
    }
    o.push_str(
        "template <typename Tag,typename...CapturedVarTypePack>\nstruct __nv_dl_wrapper_t {\n\
         static_assert(sizeof...(CapturedVarTypePack) == 0,\"nvcc internal error: unexpected number of captures!\");\n};\n\
         template <typename Tag>\nstruct __nv_dl_wrapper_t<Tag> {\n__nv_dl_wrapper_t(Tag) { }\ntemplate <typename...U1>\nint operator()(U1...) { return 0; }\n};\n\
         template <typename U, U func, typename Return, unsigned>\nstruct __nv_dl_trailing_return_tag { };\n\n\
         template <typename U, U func, typename Return, unsigned Id>\nstruct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id> > {\n\
         \x20 __nv_dl_wrapper_t(__nv_dl_trailing_return_tag<U, func, Return, Id>) { }\n\n\
         \x20 template <typename...U1> Return operator()(U1...) { __builtin_unreachable(); }\n}; \n\n",
    );
    const TR: &str = "__nv_dl_trailing_return_tag<U, func, Return, Id>";
    for &n in dl_counts.iter().filter(|&&n| n > 0) {
        let tp = dims(n, &|k| format!(", typename F{k}"));
        let sp = dims(n, &|k| format!(", F{k}"));
        let fl = dims(n, &|k| format!("typename __nv_lambda_field_type<F{k}>::type f{k};\n"));
        let ps = (1..=n).map(|k| format!("F{k} in{k}")).collect::<Vec<_>>().join(", ");
        let ini = (1..=n).map(|k| format!("f{k}(in{k})")).collect::<Vec<_>>().join(", ");
        let _ = write!(
            o,
            "\ntemplate <typename Tag{tp}>\nstruct __nv_dl_wrapper_t<Tag{sp}> {{\n{fl}__nv_dl_wrapper_t(Tag,{ps}) : {ini} {{ }}\n\
             template <typename...U1>\nint operator()(U1...) {{ return 0; }}\n}};\n"
        );
        let _ = write!(
            o,
            "\ntemplate <typename U, U func, typename Return, unsigned Id{tp}>\nstruct __nv_dl_wrapper_t<{TR}{sp}> {{\n{fl}\
             __nv_dl_wrapper_t({TR},{ps}) : {ini} {{ }}\ntemplate <typename...U1>\nReturn operator()(U1...) {{ __builtin_unreachable(); }}\n}};\n\n"
        );
    }
    const H: &str = "__nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>";
    o.push_str(
        "\nnamespace {template <typename Tag, typename OpFuncR, typename ...OpFuncArgs>\nstruct __nv_hdl_helper {\n\
         \x20 typedef void * (*fp_copier_t)(void *);\n  typedef OpFuncR (*fp_caller_t)(void *, OpFuncArgs...);\n\
         \x20 typedef void (*fp_deleter_t) (void *);\n  typedef OpFuncR (*fp_noobject_caller_t)(OpFuncArgs...);\n\
         \x20 static fp_copier_t fp_copier;\n  static fp_deleter_t fp_deleter;\n  static fp_caller_t fp_caller;\n\
         \x20 static fp_noobject_caller_t fp_noobject_caller;\n};\n\n",
    );
    for (i, m) in ["fp_copier", "fp_deleter", "fp_caller", "fp_noobject_caller"].iter().enumerate() {
        let _ = write!(
            o,
            "template <typename Tag, typename OpFuncR, typename ...OpFuncArgs>\ntypename {H}::{m}_t {H}::{m};\n{}",
            if i < 2 { "\n" } else { "" }
        );
    }
    o.push_str(
        "}\ntemplate <bool IsMutable, bool HasFuncPtrConv, bool NeverThrows, typename Tag, typename OpFunc,typename...CapturedVarTypePack>\n\
         struct __nv_hdl_wrapper_t {\nstatic_assert(sizeof...(CapturedVarTypePack) == 0,\"nvcc internal error: unexpected number of captures in __host__ __device__ lambda!\");\n};\n",
    );
    for &n in hdl_counts {
        hdl_specializations(&mut o, n);
    }
    const G: &str = "template <typename Tag, typename C, typename R,  typename... OpFuncArgs>\nstruct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...)";
    let a = |nt: &str| {
        format!(
            ">\n{{\ntemplate <typename Lambda>\nstatic auto get(Lambda lam, CaptureArgs... args) ->  __nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv, {nt}, Tag, R(OpFuncArgs...),  CaptureArgs...>;\n}};\n\n"
        )
    };
    let b = |nt: &str| {
        format!(
            ">\n{{\ntemplate <typename Lambda>\n static auto get(Lambda lam, CaptureArgs... args) -> __nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv,{nt}, Tag, R(OpFuncArgs...), CaptureArgs...>;\n\n}};"
        )
    };
    let _ = write!(
        o,
        "\ntemplate <bool IsMutable, bool HasFuncPtrConv,typename ...CaptureArgs>\nstruct __nv_hdl_helper_trait_outer {{\n\
         template <typename Tag, typename Lambda>\nstruct __nv_hdl_helper_trait : public  __nv_hdl_helper_trait<Tag,  decltype(&Lambda::operator())> {{ }};\n\
         {G} const{}{G}{}",
        a("false"),
        b("false")
    );
    if cxx17 {
        let _ = write!(o, "\n{G} const noexcept{}{G} noexcept{}", a("true"), b(" true"));
    }
    const X: &str = "__nv_hdl_helper_trait_outer<IsMutable, HasFuncPtrConv, CaptureArgs...>::template __nv_hdl_helper_trait<Tag, Lambda>::get(lam, args...)";
    let _ = write!(
        o,
        "\n}};\ntemplate<bool IsMutable, bool HasFuncPtrConv, typename Tag, typename...CaptureArgs>\nstruct __nv_hdl_create_wrapper_t {{\ntemplate <typename Lambda>\n\
         static auto __nv_hdl_create_wrapper(Lambda &&lam, CaptureArgs... args) -> decltype({X}) {{\ntypedef decltype({X}) container_type;\n\
         return container_type(Tag{{}}, std::move(lam), args...);\n}}\n}};\n\n"
    );
    o.push_str(
        "template<typename T> struct __nv_lambda_trait_remove_const { typedef T type; };\n\
         template<typename T> struct __nv_lambda_trait_remove_const<T  const> { typedef T type; };\n\
         template<typename T> struct __nv_lambda_trait_remove_volatile { typedef T type; };\n\
         template<typename T> struct __nv_lambda_trait_remove_volatile <T  volatile> {  typedef T type; };\n\
         template<typename T> struct __nv_lambda_trait_remove_cv {\n\
         typedef typename  __nv_lambda_trait_remove_const< typename  __nv_lambda_trait_remove_volatile<T>::type >::type type;\n};\n\n\
         template <typename T>\nstruct __nv_extended_device_lambda_trait_helper {\n  static const bool value = false;\n};\n\
         template <typename T1, typename...Pack>\nstruct __nv_extended_device_lambda_trait_helper<__nv_dl_wrapper_t<T1, Pack...> > {\n  static const bool value = true;\n};\n\
         #define __nv_is_extended_device_lambda_closure_type(X) __nv_extended_device_lambda_trait_helper< typename __nv_lambda_trait_remove_cv<X>::type>::value\n\n\
         template<typename T> struct __nv_lambda_trait_remove_dl_wrapper { typedef T type; };\n\
         template<typename T> struct __nv_lambda_trait_remove_dl_wrapper< __nv_dl_wrapper_t<T> > { typedef T type; };\n\n\
         template <typename T>\nstruct __nv_extended_device_lambda_with_trailing_return_trait_helper {\n  static const bool value = false;\n};\n\
         template <typename U, U func, typename Return, unsigned Id, typename...Pack>\n\
         struct __nv_extended_device_lambda_with_trailing_return_trait_helper<__nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, Pack...> > {\n  static const bool value = true;\n};\n\
         #define __nv_is_extended_device_lambda_with_preserved_return_type(X) __nv_extended_device_lambda_with_trailing_return_trait_helper< typename __nv_lambda_trait_remove_cv<X>::type >::value\n\n\
         template <typename>\nstruct __nv_extended_host_device_lambda_trait_helper {\n  static const bool value = false;\n};\n\
         template <bool B1, bool B2, bool B3, typename T1, typename T2, typename...Pack>\n\
         struct __nv_extended_host_device_lambda_trait_helper<__nv_hdl_wrapper_t<B1, B2, B3, T1, T2, Pack...> > {\n  static const bool value = true;\n};\n\
         #define __nv_is_extended_host_device_lambda_closure_type(X)  __nv_extended_host_device_lambda_trait_helper< typename __nv_lambda_trait_remove_cv<X>::type>::value\n\n",
    );
    o
}

/// The four `__nv_hdl_wrapper_t` specializations for `n` captures, in the
/// order (IsMutable, HasFuncPtrConv) = (F,F), (T,F), (F,T), (T,T).
fn hdl_specializations(o: &mut String, n: usize) {
    const H: &str = "__nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>";
    let ks = 1..=n;
    let join = |f: &dyn Fn(usize) -> String, sep: &str| ks.clone().map(f).collect::<Vec<_>>().join(sep);
    for (fptr, mutable) in [(false, false), (false, true), (true, false), (true, true)] {
        let _ = write!(
            o,
            "template <bool NeverThrows, typename Tag, typename OpFuncR,  typename... OpFuncArgs{}>\n\
             struct __nv_hdl_wrapper_t<{},{},NeverThrows,Tag, OpFuncR(OpFuncArgs...){}>\n{{\n{}\n typedef OpFuncR(__opfunc_t)(OpFuncArgs...);\n",
            join(&|k| format!(", typename F{k}"), ""),
            mutable,
            fptr,
            join(&|k| format!(", F{k}"), ""),
            join(&|k| format!("typename __nv_lambda_field_type<F{k}>::type f{k};\n"), ""),
        );
        let head = format!(
            "template <typename Lambda>\n__nv_hdl_wrapper_t(Tag, Lambda &&lam{})  ",
            join(&|k| format!(", F{k} in{k} "), "")
        );
        let inits = join(&|k| format!("f{k}(in{k})"), " ,");
        let cq = if mutable { "" } else { "const " };
        if !fptr {
            let _ = write!(
                o,
                " void *data;\n\n\n template <typename Lambda>\n struct manager {{\n\
                 \x20    static void *do_copy(void *buf) {{\n       auto ptr = static_cast<Lambda *>(buf);\n       return static_cast<void *>(new Lambda(*ptr));\n     }};\n\
                 \x20    static OpFuncR do_call(void *buf, OpFuncArgs... args) {{\n       auto ptr = static_cast<Lambda *>(buf);\n       return (*ptr)(std::forward<OpFuncArgs>(args)...);\n     }};\n\
                 \x20    static void do_delete(void *buf) {{\n       auto ptr = static_cast<Lambda *>(buf);\n       delete ptr;\n     }}\n }};\n\
                 {head}: {}data(static_cast<void *>(new Lambda(std::move(lam)))) {{\n\
                 {H}::fp_copier =   &manager<Lambda>::do_copy;\n {H}::fp_deleter =   &manager<Lambda>::do_delete;\n {H}::fp_caller =   &manager<Lambda>::do_call;\n}}\n\n\
                 OpFuncR operator() (OpFuncArgs... args) {cq}noexcept(NeverThrows) {{\nreturn {H}::fp_caller(data, std::forward<OpFuncArgs>(args)...);}}\n\
                 __nv_hdl_wrapper_t(const __nv_hdl_wrapper_t &in) : {}data({H}::fp_copier(in.data)) {{ }}\n\n\
                 __nv_hdl_wrapper_t(__nv_hdl_wrapper_t &&in) : {}data(in.data) {{ in.data = 0; }}\n\
                 ~__nv_hdl_wrapper_t(void) {{ {H}::fp_deleter(data); }}\n",
                if n > 0 { format!("{inits} ,") } else { String::new() },
                if n > 0 { format!("{}  , ", join(&|k| format!("f{k}(in.f{k})"), " ,")) } else { String::new() },
                if n > 0 {
                    format!("{}  , ", join(&|k| format!("f{k}(std::move(in.f{k}))"), " ,"))
                } else {
                    String::new()
                },
            );
        } else {
            let _ = write!(
                o,
                "{head}{}{{ {H}::fp_noobject_caller = lam; }}\n\n\
                 OpFuncR operator() (OpFuncArgs... args) {cq}noexcept(NeverThrows) {{\nreturn {H}::fp_noobject_caller(std::forward<OpFuncArgs>(args)...);}}\n\
                 operator __opfunc_t * () const {{ return {H}::fp_noobject_caller; }}\n\n",
                if n > 0 { format!(": {inits}  ") } else { String::new() },
            );
        }
        o.push_str("__nv_hdl_wrapper_t & operator=(const __nv_hdl_wrapper_t &in) = delete;\n\n};\n\n");
    }
}
