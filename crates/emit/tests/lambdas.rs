//! Snapshot tests of extended lambdas in the host file (spec 30 §5), one
//! small input per rule, written as the preprocessed text cudafe++ reads
//! (`__device__` is `__attribute__((device))` there). Only the body of the
//! host file is shown. The restrictions of spec 30 §5.3 are checks of the
//! host pass (`cufront-check`'s `lambdas`, tested there): a unit that breaks
//! them has no host file.

use std::collections::BTreeSet;

use cufront_emit::host::{HostOptions, header, preamble, trailer};
use cufront_syntax::ParseOptions;
use expect_test::{Expect, expect};

mod common;
use common::host_file;

fn opts() -> HostOptions {
    HostOptions {
        gnu_version: Some(120200),
        static_host_stub: true,
        extended_lambda: true,
        cxx17: true,
        device_hidden_visibility: true,
        device_c: false,
        debug_mode: false,
        all_bodies: false,
        stub_file_name: "x.cudafe1.stub.c".into(),
        module_id: "_0_4_x_cu_k".into(),
    }
}

fn check_with(src: &str, o: &HostOptions, want: Expect) {
    let text = format!("# 1 \"x.cu\"\n{src}");
    let parse = cufront_syntax::parse(&text, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let host = host_file(&text, o);
    let body = host.text.strip_prefix(&header(o, "x.cu")).expect("header first");
    let (body, _) = body.split_once(&trailer(o)).expect("trailer");
    let mut shown: String = body.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    for (r, what) in host.unsupported {
        shown.push_str(&format!("unsupported at {r:?}: {what}\n"));
    }
    want.assert_eq(&shown);
}

fn check(src: &str, want: Expect) {
    check_with(src, &opts(), want)
}

fn set(v: &[usize]) -> BTreeSet<usize> {
    v.iter().copied().collect()
}

/// The preamble's specializations (the `struct` heads) and its size: the
/// text itself is compared byte for byte with the real cudafe++ in
/// `crates/cufront/tests/lambdas_vs_cudafe.rs`.
fn outline(dl: &[usize], hdl: &[usize], cxx17: bool) -> String {
    let p = preamble(&set(dl), &set(hdl), cxx17);
    let mut out = format!("{} bytes\n", p.len());
    for l in p.lines().filter(|l| l.starts_with("struct ")) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

#[test]
fn preamble_without_lambdas() {
    expect![[r#"
        12827 bytes
        struct __nvdl_remove_ref { typedef T type; };
        struct __nvdl_remove_ref<T&> { typedef T type; };
        struct __nvdl_remove_ref<T&&> { typedef T type; };
        struct __nvdl_remove_ref<T(&)(Args...)> {
        struct __nvdl_remove_const { typedef T type; };
        struct __nvdl_remove_const<T const> { typedef T type; };
        struct __nv_dl_tag { };
        struct __nv_lambda_array_wrapper { 
        struct __nv_lambda_array_wrapper<T [D1]> {T arr[D1];
        struct __nv_lambda_array_wrapper<T [D1][D2]> {T arr[D1][D2];
        struct __nv_lambda_array_wrapper<T [D1][D2][D3]> {T arr[D1][D2][D3];
        struct __nv_lambda_array_wrapper<T [D1][D2][D3][D4]> {T arr[D1][D2][D3][D4];
        struct __nv_lambda_array_wrapper<T [D1][D2][D3][D4][D5]> {T arr[D1][D2][D3][D4][D5];
        struct __nv_lambda_array_wrapper<T [D1][D2][D3][D4][D5][D6]> {T arr[D1][D2][D3][D4][D5][D6];
        struct __nv_lambda_array_wrapper<T [D1][D2][D3][D4][D5][D6][D7]> {T arr[D1][D2][D3][D4][D5][D6][D7];
        struct __nv_lambda_field_type {
        struct __nv_lambda_field_type<T [D1]> {
        struct __nv_lambda_field_type<const T [D1]> {
        struct __nv_lambda_field_type<T [D1][D2]> {
        struct __nv_lambda_field_type<const T [D1][D2]> {
        struct __nv_lambda_field_type<T [D1][D2][D3]> {
        struct __nv_lambda_field_type<const T [D1][D2][D3]> {
        struct __nv_lambda_field_type<T [D1][D2][D3][D4]> {
        struct __nv_lambda_field_type<const T [D1][D2][D3][D4]> {
        struct __nv_lambda_field_type<T [D1][D2][D3][D4][D5]> {
        struct __nv_lambda_field_type<const T [D1][D2][D3][D4][D5]> {
        struct __nv_lambda_field_type<T [D1][D2][D3][D4][D5][D6]> {
        struct __nv_lambda_field_type<const T [D1][D2][D3][D4][D5][D6]> {
        struct __nv_lambda_field_type<T [D1][D2][D3][D4][D5][D6][D7]> {
        struct __nv_lambda_field_type<const T [D1][D2][D3][D4][D5][D6][D7]> {
        struct __nv_dl_wrapper_t {
        struct __nv_dl_wrapper_t<Tag> {
        struct __nv_dl_trailing_return_tag { };
        struct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id> > {
        struct __nv_hdl_helper {
        struct __nv_hdl_wrapper_t {
        struct __nv_hdl_helper_trait_outer {
        struct __nv_hdl_helper_trait : public  __nv_hdl_helper_trait<Tag,  decltype(&Lambda::operator())> { };
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) const>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...)>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) const noexcept>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) noexcept>
        struct __nv_hdl_create_wrapper_t {
        struct __nv_extended_device_lambda_trait_helper {
        struct __nv_extended_device_lambda_trait_helper<__nv_dl_wrapper_t<T1, Pack...> > {
        struct __nv_extended_device_lambda_with_trailing_return_trait_helper {
        struct __nv_extended_device_lambda_with_trailing_return_trait_helper<__nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, Pack...> > {
        struct __nv_extended_host_device_lambda_trait_helper {
        struct __nv_extended_host_device_lambda_trait_helper<__nv_hdl_wrapper_t<B1, B2, B3, T1, T2, Pack...> > {
    "#]]
    .assert_eq(&outline(&[], &[], true));
}

/// Only the capture-count specializations differ between the sets; the
/// shared part is shown once above.
fn counted(dl: &[usize], hdl: &[usize], cxx17: bool) -> String {
    outline(dl, hdl, cxx17)
        .lines()
        .filter(|l| {
            l.ends_with("bytes")
                || l.contains(", F1")
                || l.contains("<false,")
                || l.contains("<true,")
                || l.contains("noexcept>")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn preamble_device_2_host_device_1() {
    expect![[r#"
        18712 bytes
        struct __nv_dl_wrapper_t<Tag, F1, F2> {
        struct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, F1, F2> {
        struct __nv_hdl_wrapper_t<false,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1>
        struct __nv_hdl_wrapper_t<true,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1>
        struct __nv_hdl_wrapper_t<false,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1>
        struct __nv_hdl_wrapper_t<true,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) const noexcept>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) noexcept>
    "#]]
    .assert_eq(&counted(&[2], &[1], true));
}

#[test]
fn preamble_device_3_host_device_0() {
    expect![[r#"
        18470 bytes
        struct __nv_dl_wrapper_t<Tag, F1, F2, F3> {
        struct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, F1, F2, F3> {
        struct __nv_hdl_wrapper_t<false,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<true,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<false,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<true,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) const noexcept>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) noexcept>
    "#]]
    .assert_eq(&counted(&[3], &[0], true));
}

#[test]
fn preamble_host_device_3() {
    expect![[r#"
        18731 bytes
        struct __nv_hdl_wrapper_t<false,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2, F3>
        struct __nv_hdl_wrapper_t<true,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2, F3>
        struct __nv_hdl_wrapper_t<false,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2, F3>
        struct __nv_hdl_wrapper_t<true,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2, F3>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) const noexcept>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) noexcept>
    "#]]
    .assert_eq(&counted(&[], &[3], true));
}

#[test]
fn preamble_device_1_4_host_device_0_2() {
    // A device count of 0 adds nothing (the `<Tag>` primary covers it).
    expect![[r#"
        24745 bytes
        struct __nv_dl_wrapper_t<Tag, F1> {
        struct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, F1> {
        struct __nv_dl_wrapper_t<Tag, F1, F2, F3, F4> {
        struct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, F1, F2, F3, F4> {
        struct __nv_hdl_wrapper_t<false,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<true,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<false,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<true,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...)>
        struct __nv_hdl_wrapper_t<false,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2>
        struct __nv_hdl_wrapper_t<true,false,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2>
        struct __nv_hdl_wrapper_t<false,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2>
        struct __nv_hdl_wrapper_t<true,true,NeverThrows,Tag, OpFuncR(OpFuncArgs...), F1, F2>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) const noexcept>
        struct __nv_hdl_helper_trait<Tag,  R(C::*)(OpFuncArgs...) noexcept>
    "#]]
    .assert_eq(&counted(&[0, 1, 4], &[0, 2], true));
}

#[test]
fn preamble_cxx14_has_no_noexcept_traits() {
    expect![[r#"
        12182 bytes
    "#]]
    .assert_eq(&counted(&[], &[], false));
}

const SENTINEL: &str = "struct __attribute__((device_builtin)) __nv_lambda_preheader_injection { };\n";

#[test]
fn preamble_goes_at_the_sentinel_with_the_unit_counts() {
    let src = format!(
        "{SENTINEL}void f(int a, int b) {{ auto l = [a, b] __attribute__((device)) (int x) {{ return x + a + b; }}; \
         auto h = [a] __attribute__((host)) __attribute__((device)) (int x) {{ return x + a; }}; }}\n"
    );
    let text = format!("# 1 \"x.cu\"\n{src}");
    let host = host_file(&text, &opts());
    let p = preamble(&set(&[2]), &set(&[1]), true);
    let shown = host.text.replace(&p, "<preamble dl={2} hdl={1}>");
    let body = shown.strip_prefix(&header(&opts(), "x.cu")).unwrap();
    let body: String =
        body.split_once(&trailer(&opts())).unwrap().0.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    expect![[r##"
        # 1 "x.cu"

        <preamble dl={2} hdl={1}>#if 0
        # 1 "x.cu"
        struct  __nv_lambda_preheader_injection { };
        #endif
        # 1 "x.cu"

        void f(int a, int b) { auto l = __nv_dl_wrapper_t< __nv_dl_tag<void (*)(int a, int b),(& ::f),1> , typename __nvdl_remove_ref<decltype(a)>::type, typename __nvdl_remove_ref<decltype(b)>::type>( __nv_dl_tag<void (*)(int a, int b),(& ::f),1> {} , a, b)
        #if 0
        [a, b]  (int x)
        { }
        #if 0
        { return x + a + b; }
        #endif
        #endif
        # 2 "x.cu"
                                                                                                    ; typedef decltype(l) __T0; auto h = __nv_hdl_create_wrapper_t< false, false, __nv_dl_tag<void (*)(int a, int b),(& ::f),2> , typename __nvdl_remove_ref<decltype(a)>::type>::__nv_hdl_create_wrapper( [a]   (int x) { return x + a; } , a) ; typedef decltype(h) __T1; }
    "##]]
    .assert_eq(&body);
}

#[test]
fn device_lambda_without_captures() {
    check(
        "int main() { auto d = [] __attribute__((device)) (int x) { return x; }; }\n",
        expect![[r##"
            # 1 "x.cu"
            int main() { auto d = __nv_dl_wrapper_t< __nv_dl_tag<int (*)(void),(& ::main),1> >( __nv_dl_tag<int (*)(void),(& ::main),1> {} )
            #if 0
            []  (int x)
            { }
            #if 0
            { return x; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                  ; typedef decltype(d) __T0; }
        "##]],
    );
}

/// `namespace a::b {` (C++17 nested form) names both namespaces in the tag.
#[test]
fn parent_in_a_nested_namespace_definition() {
    check(
        "namespace a::b { void run() { auto d = [] __attribute__((device)) (int x) { return x; }; } }\n",
        expect![[r##"
            # 1 "x.cu"
            namespace a::b { void run() { auto d = __nv_dl_wrapper_t< __nv_dl_tag<void (*)(void),(& ::a::b::run),1> >( __nv_dl_tag<void (*)(void),(& ::a::b::run),1> {} )
            #if 0
            []  (int x)
            { }
            #if 0
            { return x; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                   ; typedef decltype(d) __T0; } }
        "##]],
    );
}

#[test]
fn device_lambda_with_explicit_captures_and_trailing_return() {
    check(
        "namespace NS { void run(int *out, double s) { \
         auto d = [out, s] __attribute__((device)) (int i) -> float { out[i] = s; return 1; }; } }\n",
        expect![[r##"
            # 1 "x.cu"
            namespace NS { void run(int *out, double s) { auto d = __nv_dl_wrapper_t< __nv_dl_trailing_return_tag<void (*)(int *out, double s),(& ::NS::run),float, 1> , typename __nvdl_remove_ref<decltype(out)>::type, typename __nvdl_remove_ref<decltype(s)>::type>( __nv_dl_trailing_return_tag<void (*)(int *out, double s),(& ::NS::run),float, 1> {} , out, s)
            #if 0
            [out, s]  (int i) -> float
            { }
            #if 0
            { out[i] = s; return 1; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                                                              ; typedef decltype(d) __T0; } }
        "##]],
    );
}

#[test]
fn implicit_captures_in_order_of_first_use() {
    // Locals and parameters named in the body are captured (constants
    // too); static locals, globals, the lambda's own parameters and locals,
    // and names shadowed inside it are not.
    check(
        "int g; void k(int n, int *out) { int scale = 2; const int c = 5; static int st; \
         for (int i = 0; i < n; ++i) { auto [p, q] = pair(); \
         auto d = [=] __attribute__((device)) (int x) { int y = x; for (int n = 0; n < 2; ++n) y += n; \
         return out[0] + y + scale * c + st + g + i + q + [](int scale) { return scale; }(1); }; } }\n",
        expect![[r##"
            # 1 "x.cu"
            int g; void k(int n, int *out) { int scale = 2; const int c = 5; static int st; for (int i = 0; i < n; ++i) { auto [p, q] = pair(); auto d = __nv_dl_wrapper_t< __nv_dl_tag<void (*)(int n, int *out),(& ::k),1> , typename __nvdl_remove_ref<decltype(out)>::type, typename __nvdl_remove_ref<decltype(scale)>::type, typename __nvdl_remove_ref<decltype(c)>::type, typename __nvdl_remove_ref<decltype(i)>::type, typename __nvdl_remove_ref<decltype(q)>::type>( __nv_dl_tag<void (*)(int n, int *out),(& ::k),1> {} , out, scale, c, i, q)
            #if 0
            [=]  (int x)
            { }
            #if 0
            { int y = x; for (int n = 0; n < 2; ++n) y += n; return out[0] + y + scale * c + st + g + i + q + [](int scale) { return scale; }(1); }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                                                                                                                                                                                                                                                    ; typedef decltype(d) __T0; } }
        "##]],
    );
}

#[test]
fn this_and_star_this() {
    // `[=]` reaches members through `this`; `*this` is const unless the
    // lambda is mutable. Out-of-class members name the class.
    check(
        "struct Obj { int mem; void m() { auto a = [=] __attribute__((device)) (int x) { return x + mem; }; \
         auto b = [*this] __attribute__((device)) (int x) { return x + mem; }; \
         auto c = [*this] __attribute__((device)) (int x) mutable { return x + mem; }; } \
         void cm() const; };\n\
         void Obj::cm() const { auto t = [this] __attribute__((device)) () { return mem; }; }\n",
        expect![[r##"
            # 1 "x.cu"
            struct Obj { int mem; void m() { auto a = __nv_dl_wrapper_t< __nv_dl_tag<void (Obj::*)(void),(&Obj::m),1> , decltype(this) const>( __nv_dl_tag<void (Obj::*)(void),(&Obj::m),1> {} , this)
            #if 0
            [=]  (int x)
            { }
            #if 0
            { return x + mem; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                             ; typedef decltype(a) __T0; auto b = __nv_dl_wrapper_t< __nv_dl_tag<void (Obj::*)(void),(&Obj::m),2> , typename __nvdl_remove_const<typename __nvdl_remove_ref<decltype(*this) > ::type> :: type const>( __nv_dl_tag<void (Obj::*)(void),(&Obj::m),2> {} , *this)
            #if 0
            [*this]  (int x)
            { }
            #if 0
            { return x + mem; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                                                                                                   ; typedef decltype(b) __T1; auto c = __nv_dl_wrapper_t< __nv_dl_tag<void (Obj::*)(void),(&Obj::m),3> , typename __nvdl_remove_const<typename __nvdl_remove_ref<decltype(*this) > ::type> :: type>( __nv_dl_tag<void (Obj::*)(void),(&Obj::m),3> {} , *this)
            #if 0
            [*this]  (int x) mutable
            { }
            #if 0
            { return x + mem; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                                                                                                                                                                                 ; typedef decltype(c) __T2; } void cm() const; };
            void Obj::cm() const { auto t = __nv_dl_wrapper_t< __nv_dl_tag<void (Obj::*)(void) const,(&Obj::cm),1> , decltype(this) const>( __nv_dl_tag<void (Obj::*)(void) const,(&Obj::cm),1> {} , this)
            #if 0
            [this]  ()
            { }
            #if 0
            { return mem; }
            #endif
            #endif
            # 2 "x.cu"
                                                                                             ; typedef decltype(t) __T3; }
        "##]],
    );
}

#[test]
fn members_of_base_classes_are_reached_through_this() {
    check(
        "struct B { int bm; }; struct D : public B { void run(int q) { \
         auto a = [=] __attribute__((device)) (int x) { return x + q + bm; }; } };\n",
        expect![[r##"
            # 1 "x.cu"
            struct B { int bm; }; struct D : public B { void run(int q) { auto a = __nv_dl_wrapper_t< __nv_dl_tag<void (D::*)(int q),(&D::run),1> , typename __nvdl_remove_ref<decltype(q)>::type, decltype(this) const>( __nv_dl_tag<void (D::*)(int q),(&D::run),1> {} , q, this)
            #if 0
            [=]  (int x)
            { }
            #if 0
            { return x + q + bm; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                                                             ; typedef decltype(a) __T0; } };
        "##]],
    );
}

#[test]
fn init_captures() {
    check(
        "void f(int n) { auto d = [y = n + 1, w(n)] __attribute__((device)) () { return y + w; }; }\n",
        expect![[r##"
            # 1 "x.cu"
            void f(int n) { auto d = __nv_dl_wrapper_t< __nv_dl_tag<void (*)(int n),(& ::f),1> , typename __nv_lambda_trait_remove_cv<typename __nvdl_remove_ref<decltype(n + 1)>::type>::type, typename __nv_lambda_trait_remove_cv<typename __nvdl_remove_ref<decltype((n))>::type>::type>( __nv_dl_tag<void (*)(int n),(& ::f),1> {} , n + 1, (n))
            #if 0
            [y = n + 1, w(n)]  ()
            { }
            #if 0
            { return y + w; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                   ; typedef decltype(d) __T0; }
        "##]],
    );
}

#[test]
fn host_device_lambdas_four_flag_combinations() {
    // (IsMutable, HasFuncPtrConv): HasFuncPtrConv needs no captures and no
    // `=` default; the lambda is printed whole, without its annotations.
    check(
        "void f(int s) { \
         auto a = [] __attribute__((host)) __attribute__((device)) (int i) { return i; };\n\
         auto b = [=] __attribute__((host)) __attribute__((device)) (int i) { return i; };\n\
         auto c = [s] __attribute__((host)) __attribute__((device)) (int i) mutable { return i + s; };\n\
         auto d = [] __attribute__((host)) __attribute__((device)) (int i) mutable noexcept -> int { return i; }; }\n",
        expect![[r#"
            # 1 "x.cu"
            void f(int s) { auto a = __nv_hdl_create_wrapper_t< false, true, __nv_dl_tag<void (*)(int s),(& ::f),1> >::__nv_hdl_create_wrapper( []   (int i) { return i; } ) ; typedef decltype(a) __T0;
            auto b = __nv_hdl_create_wrapper_t< false, false, __nv_dl_tag<void (*)(int s),(& ::f),2> >::__nv_hdl_create_wrapper( [=]   (int i) { return i; } ) ; typedef decltype(b) __T1;
            auto c = __nv_hdl_create_wrapper_t< true, false, __nv_dl_tag<void (*)(int s),(& ::f),3> , typename __nvdl_remove_ref<decltype(s)>::type>::__nv_hdl_create_wrapper( [s]   (int i) mutable { return i + s; } , s) ; typedef decltype(c) __T2;
            auto d = __nv_hdl_create_wrapper_t< true, true, __nv_dl_tag<void (*)(int s),(& ::f),4> >::__nv_hdl_create_wrapper( []   (int i) mutable noexcept -> int { return i; } ) ; typedef decltype(d) __T3; }
        "#]],
    );
}

#[test]
fn template_parents() {
    check(
        "template <typename T, int N> void tf(T v) { auto d = [v] __attribute__((device)) () { return v; }; }\n\
         template <typename T> struct C { void m(T v) { auto d = [v] __attribute__((device)) () { return v; }; } };\n",
        expect![[r##"
            # 1 "x.cu"
            template <typename T, int N> void tf(T v) { auto d = __nv_dl_wrapper_t< __nv_dl_tag<void (*)(T v),(& ::tf< T, N> ),1> , typename __nvdl_remove_ref<decltype(v)>::type>( __nv_dl_tag<void (*)(T v),(& ::tf< T, N> ),1> {} , v)
            #if 0
            [v]  ()
            { }
            #if 0
            { return v; }
            #endif
            #endif
            # 1 "x.cu"
                                                                                                             ; }
            template <typename T> struct C { void m(T v) { auto d = __nv_dl_wrapper_t< __nv_dl_tag<void (C::*)(T v),(&C::m),1> , typename __nvdl_remove_ref<decltype(v)>::type>( __nv_dl_tag<void (C::*)(T v),(&C::m),1> {} , v)
            #if 0
            [v]  ()
            { }
            #if 0
            { return v; }
            #endif
            #endif
            # 2 "x.cu"
                                                                                                                ; } };
        "##]],
    );
}

#[test]
fn device_lambda_that_is_not_extended() {
    // At namespace scope (and in device code) a `__device__` lambda keeps
    // its closure type; host code sees an empty body.
    check(
        "auto g = [] __attribute__((device)) (int x) { return x; };\n\
         __attribute__((global)) void k() { auto l = [] __attribute__((device)) (int x) { return x; }; }\n",
        expect![[r##"
            # 1 "x.cu"
            auto g = []  (int x)
            { }
            #if 0
            { return x; }
            #endif
            # 1 "x.cu"
                                                                     ; typedef decltype(g) __T0;
            __attribute__((visibility("hidden")))  void k();
            #if 0
            { auto l = [] __attribute__((device)) (int x) { return x; }; }
            #endif
            # 2 "x.cu"

        "##]],
    );
}

#[test]
fn typedef_lines_follow_auto_closure_variables_only() {
    check(
        "void f() { auto a = [](int x) { return x; }; int (*p)(int) = [](int x) { return x; }; \
         auto b = 1; auto c = [](int x) { return x; }, e = c; }\n\
         template <class T> void t() { auto a = [](int x) { return x; }; }\n",
        expect![[r#"
            # 1 "x.cu"
            void f() { auto a = [](int x) { return x; }; typedef decltype(a) __T0; int (*p)(int) = [](int x) { return x; }; auto b = 1; auto c = [](int x) { return x; }, e = c; }
            template <class T> void t() { auto a = [](int x) { return x; }; }
        "#]],
    );
}

/// A host lambda is printed without its declarator's attributes, wherever
/// they are written (found by differential testing; the focused program
/// `lambda_attributes.cu` of `host_output.rs` checks the objects); a
/// parameter's stay (extended lambdas are printed by their own rule).
#[test]
fn host_lambda_attributes_are_dropped() {
    check(
        "int a() { auto l = [] __attribute__((always_inline)) (int y [[maybe_unused]]) mutable [[gnu::cold]] __attribute__((noinline)) noexcept -> int { return y; }; return l(1); }\n\
         int b() { return [](auto&&... a) __attribute__((always_inline)) { return (0 + ... + a); }(); }\n",
        expect![[r##"
            # 1 "x.cu"
            int a() { auto l = []  (int y [[maybe_unused]]) mutable   noexcept -> int { return y; }; typedef decltype(l) __T0; return l(1); }
            int b() { return [](auto&&... a)  { return (0 + ... + a); }(); }
        "##]],
    );
}
