//! Snapshot tests of the host file, one small input per rule of spec 30 §2 /
//! spec 20 §9. Only the part after the header is shown (the header has its
//! own test); inputs are written as the preprocessed text cudafe++ reads.

use cufront_emit::host::{HostOptions, header, trailer};
use cufront_syntax::ParseOptions;
use expect_test::{Expect, expect};

mod common;
use common::host_file;

fn opts() -> HostOptions {
    HostOptions {
        gnu_version: Some(120200),
        static_host_stub: true,
        extended_lambda: false,
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
    let (body, after) = body.split_once(&trailer(o)).expect("trailer");
    // Trailing spaces (the column padding after a line directive) are not shown.
    let mut shown: String = body.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    if !after.is_empty() {
        shown.push_str("--- after the trailer ---\n");
        shown.push_str(after);
    }
    for (r, what) in host.unsupported {
        shown.push_str(&format!("unsupported at {r:?}: {what}\n"));
    }
    want.assert_eq(&shown);
}

fn check(src: &str, want: Expect) {
    check_with(src, &opts(), want)
}

#[test]
fn kernel_definition_becomes_a_declaration() {
    check(
        "__attribute__((global)) void k(int *p) { p[0] = 1; }\nint x;\n",
        expect![[r##"
            # 1 "x.cu"
            __attribute__((visibility("hidden")))  void k(int *p);
            #if 0
            { p[0] = 1; }
            #endif
            # 1 "x.cu"

            int x;
        "##]],
    );
}

#[test]
fn static_kernel_keeps_static_and_gets_no_visibility() {
    check(
        "static __attribute__((global)) __attribute__((launch_bounds(256))) void k() {}\n",
        expect![[r##"
            # 1 "x.cu"
            static   void k();
            #if 0
            {}
            #endif
            # 1 "x.cu"

        "##]],
    );
}

#[test]
fn template_kernel_gets_wrapper_and_forwarding_definition() {
    check(
        "template <typename T, int N> __attribute__((global)) void kt(T *p, T v) { p[N] = v; }\n",
        expect![[r##"
            # 1 "x.cu"

            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<typename T, int N> static void __wrapper__device_stub_kt(T *&p, T &v) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<typename T, int N> static void kt(T *p, T v) {__wrapper__device_stub_kt<T,N>(p,v);return;}
            #if 0
            { p[N] = v; }
            #endif
            # 1 "x.cu"

        "##]],
    );
}

#[test]
fn device_function_gets_a_dummy_body() {
    check(
        "__attribute__((device)) int f(int a, float) { return a; }\nstruct S { __attribute__((device)) S(int x) : v(x) {} int v; };\n",
        expect![[r##"
            # 1 "x.cu"
            __attribute__((unused))  int f(int a, float) {int volatile ___ = 1;(void)a;::exit(___);}
            #if 0
            { return a; }
            #endif
            # 1 "x.cu"

            struct S {  S(int x) : v(x) {int *volatile ___ = 0;(void)x;::free(___);}
            #if 0
            {}
            #endif
            # 2 "x.cu"
                                                                  int v; };
        "##]],
    );
}

#[test]
fn redeclaration_keeps_the_device_space() {
    check(
        "__attribute__((device)) void f();\nvoid f() {}\n",
        expect![[r##"
            # 1 "x.cu"
             void f();
            __attribute__((unused)) void f() {int volatile ___ = 1;::exit(___);}
            #if 0
            {}
            #endif
            # 2 "x.cu"

        "##]],
    );
}

#[test]
fn device_variables_become_host_shadows() {
    check(
        "__attribute__((device)) int d;\n__attribute__((constant)) double c = 3.0;\n__attribute__((device)) const int k = 7;\nextern __attribute__((device)) int e;\n",
        expect![[r##"
            # 1 "x.cu"
            static  int d;
            static  double c ;
            static  const int k = 7;
            static   int e;
        "##]],
    );
}

#[test]
fn device_variables_with_device_c() {
    let o = HostOptions { device_c: true, static_host_stub: false, ..opts() };
    check_with(
        "__attribute__((device)) int d = 1;\nstatic __attribute__((device)) int s;\n",
        &o,
        expect![[r##"
            # 1 "x.cu"
            __attribute__((visibility("hidden")))  int d ;
            static  int s;
            --- after the trailer ---

            extern "C" {
            extern __attribute__ ((section (".nvHRKI"))) __attribute__((weak)) const unsigned char hostRefKernelArrayInternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRKE"))) __attribute__((weak)) const unsigned char hostRefKernelArrayExternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRDI"))) __attribute__((weak)) const unsigned char hostRefDeviceArrayInternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRDE"))) __attribute__((weak)) const unsigned char hostRefDeviceArrayExternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRCI"))) __attribute__((weak)) const unsigned char hostRefConstantArrayInternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRCE"))) __attribute__((weak)) const unsigned char hostRefConstantArrayExternalLinkage[] = {
            0x0};
            }
        "##]],
    );
}

#[test]
fn launches_push_the_configuration() {
    check(
        "void h() { k<<<1, 2, 0,\n s>>>(a, b); }\n",
        expect![[r##"
            # 1 "x.cu"
            void h() { ((__cudaPushCallConfiguration(1, 2, 0, s)) ? (void)0 : k
            (a, b)); }
        "##]],
    );
}

#[test]
fn anonymous_namespaces_get_the_module_id_name() {
    check(
        "namespace { int a; }\n",
        expect![[r##"
            # 1 "x.cu"
            namespace _GLOBAL__N__0_4_x_cu_k __attribute__((visibility("hidden")))  { }; using namespace _GLOBAL__N__0_4_x_cu_k;
            #pragma GCC diagnostic ignored "-Wattributes"
            namespace _GLOBAL__N__0_4_x_cu_k __attribute__((visibility("hidden")))  {
            # 1 "x.cu"
                        int a; }
        "##]],
    );
}

#[test]
fn host_runtime_follows_the_global_size_t_typedef() {
    check(
        "namespace std { typedef unsigned long size_t; }\ntypedef unsigned long size_t;\nint x;\n",
        expect![[r##"
            # 1 "x.cu"
            namespace std { typedef unsigned long size_t; }
            typedef unsigned long size_t;
            #if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
            #define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
            #endif
            #include "crt/host_runtime.h"
            # 2 "x.cu"

            int x;
        "##]],
    );
}

#[test]
fn device_builtin_types_are_left_to_host_runtime() {
    check(
        "struct __attribute__((device_builtin)) char1 { signed char x; };\ntypedef __attribute__((device_builtin)) struct char1 char1;\nextern const __attribute__((device_builtin)) char1 threadIdx;\n",
        expect![[r##"
            # 1 "x.cu"

            #if 0
            # 1 "x.cu"
            struct  char1 { signed char x; };
            #endif
            # 1 "x.cu"


            #if 0
            # 2 "x.cu"
            typedef  struct char1 char1;
            #endif
            # 2 "x.cu"

            extern const  char1 threadIdx;
        "##]],
    );
}

#[test]
fn constexpr_survives_redeclaration() {
    check(
        "constexpr float f(float x) { return x; }\nextern __attribute__((host)) __attribute__((device)) float f(float);\n",
        expect![[r#"
            # 1 "x.cu"
            constexpr float f(float x) { return x; }
            extern constexpr   float f(float);
        "#]],
    );
}

#[test]
fn member_alias_that_changes_meaning_is_qualified() {
    check(
        "namespace n { template <class T> struct X {}; struct A { using X = X<int>; }; }\n",
        expect![[r#"
            # 1 "x.cu"
            namespace n { template <class T> struct X {}; struct A { using X = ::n::X<int>; }; }
        "#]],
    );
    // A member of the enclosing class; inside a class template, a member of
    // the current instantiation (cudafe++: `typename Collective< E> ::…`,
    // CUTLASS's `OutputOp`).
    check(
        "struct Plain { using F = float; struct In { using F = F; F f; }; };\n\
         template <class E, int... Ns> struct Collective { using Acc = E;\n\
         struct OutputOp { using Acc = Acc; Acc v; }; };\n",
        expect![[r##"
            # 1 "x.cu"
            struct Plain { using F = float; struct In { using F = ::Plain::F; F f; }; };
            template <class E, int... Ns> struct Collective { using Acc = E;
            struct OutputOp { using Acc = typename ::Collective<E, Ns...>::Acc; Acc v; }; };
        "##]],
    );
}

#[test]
fn unsupported_constructs_are_reported() {
    // A kernel defined in a friend declaration (an error for cudafe++ too).
    check(
        "template <class T> struct X { friend __attribute__((global)) void fk(X) { } };\n",
        expect![[r##"
            # 1 "x.cu"
            template <class T> struct X { friend  void fk(X) { } };
            unsupported at 41..86: this form of __global__ function template is not supported yet
        "##]],
    );
}

/// Kernel template parameters of every declarator shape (checked against
/// cudafe++ 13.0): the wrapper takes a reference to each parameter unless it
/// is declared as a reference, an array or a function; unnamed parameters
/// get `__T<n>` names where the declarator-id would be (function
/// parameters first, then template parameters); default arguments stay on
/// the forwarding definition only.
#[test]
fn kernel_template_parameters_of_any_declarator() {
    check(
        "template <class T> __attribute__((global)) void k1(T *p, int (*)(int), int (*fp)(int), T (&arr)[4], T a2[3]) { }\n\
         template <class T, int (*)(int), template <class> class C> __attribute__((global)) void k2(T, int g(int), int [3], int (*(*)(int))[3], int (T::*pm), C<T> c) { }\n\
         template <class T = int, auto N = 3> __attribute__((global)) void k3(T v, int x = 4) { }\n\
         template <class... Ts> __attribute__((global)) void k4(int n, Ts... ts, const Ts &... rs) { }\n\
         template <class T, class... Us> __attribute__((global)) void k5(T const * const __restrict__ p, T __attribute__((unused)) v, T, void (*)(T), Us...) { }\n",
        expect![[r##"
            # 1 "x.cu"

            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T> static void __wrapper__device_stub_k1(T *&p, int (*&__T0)(int), int (*&fp)(int), T (&arr)[4], T a2[3]) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T> static void k1(T *p, int (*__T0)(int), int (*fp)(int), T (&arr)[4], T a2[3]) {__wrapper__device_stub_k1<T>(p,__T0,fp,arr,a2);return;}
            #if 0
            { }
            #endif
            # 1 "x.cu"


            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T, int (*)(int), template <class> class C> static void __wrapper__device_stub_k2(T &__T1, int g(int), int __T2[3], int (*(*&__T3)(int))[3], int (T::*&pm), C<T> &c) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T, int (*__T4)(int), template <class __T5> class C> static void k2(T __T1, int g(int), int __T2[3], int (*(*__T3)(int))[3], int (T::*pm), C<T> c) {__wrapper__device_stub_k2<T,__T4,C>(__T1,g,__T2,__T3,pm,c);return;}
            #if 0
            { }
            #endif
            # 2 "x.cu"


            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T = int, auto N = 3> static void __wrapper__device_stub_k3(T &v, int &x) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T = int, auto N = 3> static void k3(T v, int x = 4) {__wrapper__device_stub_k3<T,N>(v,x);return;}
            #if 0
            { }
            #endif
            # 3 "x.cu"


            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class... Ts> static void __wrapper__device_stub_k4(int &n, Ts &... ts, const Ts &... rs) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class... Ts> static void k4(int n, Ts... ts, const Ts &... rs) {__wrapper__device_stub_k4<Ts...>(n,ts...,rs...);return;}
            #if 0
            { }
            #endif
            # 4 "x.cu"


            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T, class... Us> static void __wrapper__device_stub_k5(T const * const __restrict__ &p, T __attribute__((unused)) &v, T &__T6, void (*&__T7)(T), Us &...__T8) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T, class... Us> static void k5(T const * const __restrict__ p, T __attribute__((unused)) v, T __T6, void (*__T7)(T), Us...__T8) {__wrapper__device_stub_k5<T,Us...>(p,v,__T6,__T7,__T8...);return;}
            #if 0
            { }
            #endif
            # 5 "x.cu"

        "##]],
    );
}

#[test]
fn managed_variables_become_pointers_and_uses_are_wrapped() {
    check(
        "namespace N { __attribute__((managed)) __attribute__((device)) double md; }\n\
         __attribute__((managed)) __attribute__((device)) int m = 5, a[4][8];\n\
         struct P { int m; int f() { return m; } };\n\
         int h(int q) { N::md = 2.0; int *p = &a[1][2]; return m + sizeof m + ::m + q; }\n\
         int g(int m) { return m; }\n\
         int e(P p) { { int m = 1; } return p.m; }\n",
        expect![[r##"
            # 1 "x.cu"
            namespace N { __attribute__((section("__nv_managed_data__"))) static   double *md = 0; }
            __attribute__((section("__nv_managed_data__"))) static   int *m = 0, (*a)[4][8] = 0;
            struct P { int m; int f() { return m; } };
            int h(int q) { (*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (N::md))) = 2.0; int *p = &(*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (a)))[1][2]; return (*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (m))) + sizeof (*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (m))) + (*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (::m))) + q; }
            int g(int m) { return m; }
            int e(P p) { { int m = 1; } return p.m; }
        "##]],
    );
}

#[test]
fn managed_variables_with_device_c() {
    let o = HostOptions { device_c: true, static_host_stub: false, ..opts() };
    check_with(
        "extern __attribute__((managed)) __attribute__((device)) int x;\n\
         static __attribute__((managed)) __attribute__((device)) int s;\n\
         namespace { __attribute__((managed)) __attribute__((device)) int an; }\n",
        &o,
        expect![[r##"
            # 1 "x.cu"
            __attribute__((section("__nv_managed_data__"))) __attribute__((visibility("hidden"))) extern   int *x;
            __attribute__((section("__nv_managed_data__"))) static   int *s = 0;
            namespace _GLOBAL__N__0_4_x_cu_k __attribute__((visibility("hidden")))  { }; using namespace _GLOBAL__N__0_4_x_cu_k;
            #pragma GCC diagnostic ignored "-Wattributes"
            namespace _GLOBAL__N__0_4_x_cu_k __attribute__((visibility("hidden")))  {
            # 3 "x.cu"
                        __attribute__((section("__nv_managed_data__")))   int *an = 0; }
            --- after the trailer ---

            extern "C" {
            extern __attribute__ ((section (".nvHRKI"))) __attribute__((weak)) const unsigned char hostRefKernelArrayInternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRKE"))) __attribute__((weak)) const unsigned char hostRefKernelArrayExternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRDI"))) __attribute__((weak)) const unsigned char hostRefDeviceArrayInternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRDE"))) __attribute__((weak)) const unsigned char hostRefDeviceArrayExternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRCI"))) __attribute__((weak)) const unsigned char hostRefConstantArrayInternalLinkage[] = {
            0x0};
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRCE"))) __attribute__((weak)) const unsigned char hostRefConstantArrayExternalLinkage[] = {
            0x0};
            }
        "##]],
    );
}

#[test]
fn noinline_is_the_gnu_attribute() {
    check(
        "__attribute__((device)) __noinline__ int f() { return 1; }\n\
         __attribute__((__noinline__)) void g() {}\n",
        expect![[r##"
            # 1 "x.cu"
            __attribute__((unused))  __attribute__((noinline)) int f() {int volatile ___ = 1;::exit(___);}
            #if 0
            { return 1; }
            #endif
            # 1 "x.cu"

            __attribute__((__noinline__)) void g() {}
        "##]],
    );
}

/// `--device-c`: the six host-reference arrays list what host code names.
#[test]
fn host_reference_arrays() {
    let o = HostOptions { device_c: true, static_host_stub: false, ..opts() };
    check_with(
        "__attribute__((global)) void zz_kernel() {}\n\
         __attribute__((global)) void unused_kernel() {}\n\
         static __attribute__((global)) void k_static() {}\n\
         extern \"C\" __attribute__((global)) void kc() {}\n\
         namespace nsA { __attribute__((global)) void k_ns() {} __attribute__((device)) int d_ns; }\n\
         namespace { __attribute__((constant)) int c_anon; }\n\
         template <class T> __attribute__((global)) void k_t(T) {}\n\
         __attribute__((device)) int d_ext; static __attribute__((device)) int d_int_static;\n\
         __attribute__((managed)) __attribute__((device)) int m;\n\
         __attribute__((device)) int only_device; __attribute__((device)) void df() { only_device = 1; }\n\
         void h() { zz_kernel<<<1, 1>>>(); k_static<<<1, 1>>>(); kc<<<1, 1>>>(); nsA::k_ns<<<1, 1>>>();\n\
         k_t<<<1, 1>>>(1); k_t<int><<<1, 1>>>(1); f(&d_ext, &nsA::d_ns, c_anon, d_int_static, m); }\n",
        &o,
        expect![[r##"
            # 1 "x.cu"
            __attribute__((visibility("hidden")))  void zz_kernel();
            #if 0
            {}
            #endif
            # 1 "x.cu"

            __attribute__((visibility("hidden")))  void unused_kernel();
            #if 0
            {}
            #endif
            # 2 "x.cu"

            static  void k_static();
            #if 0
            {}
            #endif
            # 3 "x.cu"

            extern "C" __attribute__((visibility("hidden")))  void kc();
            #if 0
            {}
            #endif
            # 4 "x.cu"

            namespace nsA { __attribute__((visibility("hidden")))  void k_ns();
            #if 0
            {}
            #endif
            # 5 "x.cu"
                                                                   __attribute__((visibility("hidden")))  int d_ns; }
            namespace _GLOBAL__N__0_4_x_cu_k __attribute__((visibility("hidden")))  { }; using namespace _GLOBAL__N__0_4_x_cu_k;
            #pragma GCC diagnostic ignored "-Wattributes"
            namespace _GLOBAL__N__0_4_x_cu_k __attribute__((visibility("hidden")))  {
            # 6 "x.cu"
                        __attribute__((visibility("hidden")))  int c_anon; }

            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T> static void __wrapper__device_stub_k_t(T &__T0) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T> __attribute__((visibility("hidden"))) void k_t(T __T0) {__wrapper__device_stub_k_t<T>(__T0);return;}
            #if 0
            {}
            #endif
            # 7 "x.cu"

            __attribute__((visibility("hidden")))  int d_ext; static  int d_int_static;
            __attribute__((section("__nv_managed_data__"))) __attribute__((visibility("hidden")))   int *m = 0;
            __attribute__((visibility("hidden")))  int only_device; __attribute__((unused))  void df() {int volatile ___ = 1;::exit(___);}
            #if 0
            { only_device = 1; }
            #endif
            # 10 "x.cu"

            void h() { ((__cudaPushCallConfiguration(1, 1)) ? (void)0 : zz_kernel()); ((__cudaPushCallConfiguration(1, 1)) ? (void)0 : k_static()); ((__cudaPushCallConfiguration(1, 1)) ? (void)0 : kc()); ((__cudaPushCallConfiguration(1, 1)) ? (void)0 : nsA::k_ns());
            ((__cudaPushCallConfiguration(1, 1)) ? (void)0 : k_t(1)); ((__cudaPushCallConfiguration(1, 1)) ? (void)0 : k_t<int>(1)); f(&d_ext, &nsA::d_ns, c_anon, d_int_static, (*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (m)))); }
            --- after the trailer ---

            extern "C" {
            extern __attribute__ ((section (".nvHRKI"))) __attribute__((weak)) const unsigned char hostRefKernelArrayInternalLinkage[] = {
            /* __nv_static_11__0_4_x_cu_k_*3k_t* */
            0x5f,0x5f,0x6e,0x76,0x5f,0x73,0x74,0x61,0x74,0x69,0x63,0x5f,0x31,0x31,0x5f,0x5f,0x30,0x5f,0x34,0x5f,0x78,0x5f,0x63,0x75,0x5f,0x6b,0x5f,0x2a,0x33,0x6b,0x5f,0x74,0x2a,0x0,
            /* __nv_static_11__0_4_x_cu_k_*8k_static* */
            0x5f,0x5f,0x6e,0x76,0x5f,0x73,0x74,0x61,0x74,0x69,0x63,0x5f,0x31,0x31,0x5f,0x5f,0x30,0x5f,0x34,0x5f,0x78,0x5f,0x63,0x75,0x5f,0x6b,0x5f,0x2a,0x38,0x6b,0x5f,0x73,0x74,0x61,0x74,0x69,0x63,0x2a,0x0,
            };
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRKE"))) __attribute__((weak)) const unsigned char hostRefKernelArrayExternalLinkage[] = {
            /* _Z3k_t* */
            0x5f,0x5a,0x33,0x6b,0x5f,0x74,0x2a,0x0,
            /* _Z9zz_kernel* */
            0x5f,0x5a,0x39,0x7a,0x7a,0x5f,0x6b,0x65,0x72,0x6e,0x65,0x6c,0x2a,0x0,
            /* _ZN3nsA4k_ns* */
            0x5f,0x5a,0x4e,0x33,0x6e,0x73,0x41,0x34,0x6b,0x5f,0x6e,0x73,0x2a,0x0,
            /* kc */
            0x6b,0x63,0x0,
            };
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRDI"))) __attribute__((weak)) const unsigned char hostRefDeviceArrayInternalLinkage[] = {
            /* __nv_static_11__0_4_x_cu_k_*d_int_static */
            0x5f,0x5f,0x6e,0x76,0x5f,0x73,0x74,0x61,0x74,0x69,0x63,0x5f,0x31,0x31,0x5f,0x5f,0x30,0x5f,0x34,0x5f,0x78,0x5f,0x63,0x75,0x5f,0x6b,0x5f,0x2a,0x64,0x5f,0x69,0x6e,0x74,0x5f,0x73,0x74,0x61,0x74,0x69,0x63,0x0,
            };
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRDE"))) __attribute__((weak)) const unsigned char hostRefDeviceArrayExternalLinkage[] = {
            /* _ZN3nsA4d_ns* */
            0x5f,0x5a,0x4e,0x33,0x6e,0x73,0x41,0x34,0x64,0x5f,0x6e,0x73,0x2a,0x0,
            /* d_ext */
            0x64,0x5f,0x65,0x78,0x74,0x0,
            /* m */
            0x6d,0x0,
            };
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRCI"))) __attribute__((weak)) const unsigned char hostRefConstantArrayInternalLinkage[] = {
            /* __nv_static_11__0_4_x_cu_k_*22_GLOBAL__N__0_4_x_cu_k6c_anon* */
            0x5f,0x5f,0x6e,0x76,0x5f,0x73,0x74,0x61,0x74,0x69,0x63,0x5f,0x31,0x31,0x5f,0x5f,0x30,0x5f,0x34,0x5f,0x78,0x5f,0x63,0x75,0x5f,0x6b,0x5f,0x2a,0x32,0x32,0x5f,0x47,0x4c,0x4f,0x42,0x41,0x4c,0x5f,0x5f,0x4e,0x5f,0x5f,0x30,0x5f,0x34,0x5f,0x78,0x5f,0x63,0x75,0x5f,0x6b,0x36,0x63,0x5f,0x61,0x6e,0x6f,0x6e,0x2a,0x0,
            };
            }

            extern "C" {
            extern __attribute__ ((section (".nvHRCE"))) __attribute__((weak)) const unsigned char hostRefConstantArrayExternalLinkage[] = {
            0x0};
            }
        "##]],
    );
}

#[test]
fn header_variants() {
    let h = header(&opts(), "x.cu");
    assert!(h.starts_with("# 1 \"x.cu\"\n#pragma GCC diagnostic ignored \"-Wunused-local-typedefs\"\n# 1\n\n#pragma GCC diagnostic ignored \"-Wattributes\"\n#pragma GCC diagnostic push\n"));
    assert!(h.ends_with("#endif\n\n# 1\n"));
    let old = header(&HostOptions { gnu_version: Some(40100), static_host_stub: false, ..opts() }, "x.cu");
    assert!(old.starts_with("# 1 \"x.cu\"\nstatic char __nv_inited_managed_rt"));
    let el = header(&HostOptions { extended_lambda: true, ..opts() }, "x.cu");
    assert!(el.ends_with("\"-Wunused-variable\"\n\n# 1\n# 1\n"));
}

#[test]
fn explicit_specialization_of_a_kernel_template() {
    check(
        "template <class T> __attribute__((global)) void kt(T *p) { *p = T(); }\n\
         template <> __attribute__((global)) void kt<float>(float *p) { *p = 1.0f; }\n\
         template <class T> __attribute__((device)) T dt(T x);\n\
         template <> __attribute__((device)) int dt<int>(int x) { return x; }\n",
        expect![[r##"
            # 1 "x.cu"

            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T> static void __wrapper__device_stub_kt(T *&p) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T> static void kt(T *p) {__wrapper__device_stub_kt<T>(p);return;}
            #if 0
            { *p = T(); }
            #endif
            # 1 "x.cu"

            template<> __specialization_static void __wrapper__device_stub_kt<float>(float *&p);
            #if 0
            { *p = 1.0f; }
            #endif
            template<> __specialization_static void kt<float>(float *p) {__wrapper__device_stub_kt<float>(p);return;}
            #if 0
            { *p = 1.0f; }
            #endif
            # 2 "x.cu"

            template <class T>  T dt(T x);
            template <> __attribute__((unused))  int dt<int>(int x) {int volatile ___ = 1;(void)x;::exit(___);}
            #if 0
            { return x; }
            #endif
            # 4 "x.cu"

        "##]],
    );
}

/// `--device-c`: references from host code count wherever they are, in
/// templates that are never instantiated too (checked against cudafe++
/// 13.0: `kt_uninst`, `k_from_uninst`, `d_from_uninst` are listed; an
/// explicit instantiation alone and a device function's launch are not);
/// `namespace a::b {` opens both namespaces.
#[test]
fn host_reference_arrays_from_templates_and_nested_namespaces() {
    let o = HostOptions { device_c: true, static_host_stub: false, ..opts() };
    let src = "template <class T> __attribute__((global)) void kt_uninst(T) {}\n\
         template <class T> __attribute__((global)) void kt_member(T) {}\n\
         template <class T> __attribute__((global)) void kt_explicit(T) {}\n\
         template __attribute__((global)) void kt_explicit<int>(int);\n\
         __attribute__((global)) void k_from_uninst() {}\n\
         __attribute__((global)) void k_from_dev() {}\n\
         __attribute__((device)) int d_from_uninst;\n\
         template <class T> void h_uninst(T t) { kt_uninst<<<1,1>>>(t); k_from_uninst<<<1,1>>>(); (void)&d_from_uninst; }\n\
         template <class T> struct C { void unused(T t) { kt_member<<<1,1>>>(t); } };\n\
         __attribute__((device)) void dev() { k_from_dev<<<1,1>>>(); }\n\
         namespace a::b { __attribute__((global)) void kn() {} template <class T> __attribute__((global)) void knt(T) {} __attribute__((device)) int dn; }\n\
         namespace a { namespace b::c { __attribute__((constant)) int cn; } void f() { b::kn<<<1,1>>>(); (void)&b::c::cn; } }\n\
         template <class T> void h2(T t) { a::b::knt<<<1,1>>>(t); (void)&a::b::dn; }\n";
    let text = format!("# 1 \"x.cu\"\n{src}");
    let parse = cufront_syntax::parse(&text, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let host = host_file(&text, &o);
    // Only the patterns are shown.
    let patterns: String = host
        .text
        .lines()
        .filter(|l| l.starts_with("/* ") || l.contains("hostRef"))
        .map(|l| format!("{}\n", l.split(" const unsigned char ").last().unwrap_or(l)))
        .collect();
    expect![[r#"
        hostRefKernelArrayInternalLinkage[] = {
        /* __nv_static_11__0_4_x_cu_k_*1a1b3knt* */
        /* __nv_static_11__0_4_x_cu_k_*9kt_member* */
        /* __nv_static_11__0_4_x_cu_k_*9kt_uninst* */
        hostRefKernelArrayExternalLinkage[] = {
        /* _Z13k_from_uninst* */
        /* _Z9kt_member* */
        /* _Z9kt_uninst* */
        /* _ZN1a1b2kn* */
        /* _ZN1a1b3knt* */
        hostRefDeviceArrayInternalLinkage[] = {
        hostRefDeviceArrayExternalLinkage[] = {
        /* _ZN1a1b2dn* */
        /* d_from_uninst */
        hostRefConstantArrayInternalLinkage[] = {
        hostRefConstantArrayExternalLinkage[] = {
        /* _ZN1a1b1c2cn* */
    "#]]
    .assert_eq(&patterns);
}

/// Redeclarations are matched by what they declare, not by their spelling
/// (checked against cudafe++ 13.0, which warns 20037 and still prints a
/// dummy body): a friend declares a namespace member; `int const *` is
/// `const int *`; top-level cv-qualifiers of parameters do not count;
/// out-of-line definitions through a qualified name.
#[test]
fn redeclarations_match_what_they_declare() {
    check(
        "struct F { friend __attribute__((device)) int df(F); };\nint df(F) { return 1; }\n\
         __attribute__((device)) int d5(const int *p);\nint d5(int const *p) { return 0; }\n\
         __attribute__((device)) int d6(int *const p, const int n);\nint d6(int *p, int n) { return n; }\n\
         namespace A { __attribute__((device)) int da(int); }\nint A::da(int x) { return x; }\n\
         int d5(int *p) { return 1; }\n",
        expect![[r##"
            # 1 "x.cu"
            struct F { friend  int df(F); };
            __attribute__((unused)) int df(F) {int volatile ___ = 1;::exit(___);}
            #if 0
            { return 1; }
            #endif
            # 2 "x.cu"

             int d5(const int *p);
            __attribute__((unused)) int d5(int const *p) {int volatile ___ = 1;(void)p;::exit(___);}
            #if 0
            { return 0; }
            #endif
            # 4 "x.cu"

             int d6(int *const p, const int n);
            __attribute__((unused)) int d6(int *p, int n) {int volatile ___ = 1;(void)p;(void)n;::exit(___);}
            #if 0
            { return n; }
            #endif
            # 6 "x.cu"

            namespace A {  int da(int); }
            int A::da(int x) {int volatile ___ = 1;(void)x;::exit(___);}
            #if 0
            { return x; }
            #endif
            # 8 "x.cu"

            int d5(int *p) { return 1; }
        "##]],
    );
}

/// A function template declared `__device__` and defined with other names
/// for its template parameters is one template ([temp.over.link]): the
/// definition gets the dummy body, as cudafe++ 13.0 prints it (hir matches
/// the parameters by position; a match by spelling missed it).
#[test]
fn template_redeclarations_with_renamed_parameters() {
    check(
        "template <class T> __attribute__((device)) T twice(T x);\n\
         template <class U> U twice(U y) { return y + y; }\n",
        expect![[r##"
            # 1 "x.cu"
            template <class T>  T twice(T x);
            template <class U> __attribute__((unused)) U twice(U y) {int volatile ___ = 1;(void)y;::exit(___);}
            #if 0
            { return y + y; }
            #endif
            # 2 "x.cu"

        "##]],
    );
}

/// A friend defined in a class body is a member of the enclosing
/// namespace: a `__device__` declaration there makes it device-only, and
/// it gets the dummy body (checked against cudafe++ 13.0).
#[test]
fn hidden_friend_declared_device_in_its_namespace() {
    check(
        "struct S;\n__attribute__((device)) int hf(S);\n\
         struct S { int v; friend int hf(S s) { return s.v; } };\n",
        expect![[r##"
            # 1 "x.cu"
            struct S;
             int hf(S);
            struct S { int v; friend int hf(S s) {int volatile ___ = 1;(void)s;::exit(___);}
            #if 0
            { return s.v; }
            #endif
            # 3 "x.cu"
                                                                 };
        "##]],
    );
}

/// `--device-c`: host references through using-directives,
/// using-declarations (namespace scope and blocks) and namespace aliases
/// (checked against cudafe++ 13.0).
#[test]
fn host_reference_arrays_through_usings_and_aliases() {
    let o = HostOptions { device_c: true, static_host_stub: false, ..opts() };
    let src = "namespace ns { __attribute__((global)) void k_using() {} __attribute__((global)) void k_dir() {} __attribute__((global)) void k_alias() {}\n\
         __attribute__((device)) int d_using; __attribute__((device)) int d_dir; __attribute__((global)) void k_nsdir() {} }\n\
         namespace nn = ns;\n\
         void f2() { using ns::k_using; using ns::d_using; k_using<<<1,1>>>(); (void)&d_using; }\n\
         void f3() { using namespace ns; k_dir<<<1,1>>>(); (void)&d_dir; }\n\
         void f4() { nn::k_alias<<<1,1>>>(); }\n\
         namespace user { using namespace ns; }\n\
         namespace user { void f5() { k_nsdir<<<1,1>>>(); } }\n";
    let text = format!("# 1 \"x.cu\"\n{src}");
    let parse = cufront_syntax::parse(&text, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let host = host_file(&text, &o);
    let patterns: String = host.text.lines().filter(|l| l.starts_with("/* ")).map(|l| format!("{l}\n")).collect();
    expect![[r#"
        /* _ZN2ns5k_dir* */
        /* _ZN2ns7k_alias* */
        /* _ZN2ns7k_nsdir* */
        /* _ZN2ns7k_using* */
        /* _ZN2ns5d_dir* */
        /* _ZN2ns7d_using* */
    "#]]
    .assert_eq(&patterns);
}

/// Explicit instantiations and specializations of a kernel template with
/// unnamed parameters and default arguments (checked against cudafe++
/// 13.0): the instantiation is printed as written, without linkage; the
/// counter names the specialization's parameters too.
#[test]
fn kernel_template_instantiation_and_specialization_with_unnamed_parameters() {
    check(
        "template <class T> __attribute__((global)) void kt(T *, int (*)(int), T a[2]) { }\n\
         template __attribute__((global)) void kt<int>(int *, int (*)(int), int a[2]);\n\
         template <> __attribute__((global)) void kt<float>(float *, int (*)(int), float a[2]) { }\n\
         template <class T, class U = int> __attribute__((global)) void kd(T, U = U()) { }\n",
        expect![[r##"
            # 1 "x.cu"

            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T> static void __wrapper__device_stub_kt(T *&__T0, int (*&__T1)(int), T a[2]) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T> static void kt(T *__T0, int (*__T1)(int), T a[2]) {__wrapper__device_stub_kt<T>(__T0,__T1,a);return;}
            #if 0
            { }
            #endif
            # 1 "x.cu"

            template  void kt<int>(int *, int (*)(int), int a[2]);
            template<> __specialization_static void __wrapper__device_stub_kt<float>(float *&__T2, int (*&__T3)(int), float a[2]);
            #if 0
            { }
            #endif
            template<> __specialization_static void kt<float>(float *__T2, int (*__T3)(int), float a[2]) {__wrapper__device_stub_kt<float>(__T2,__T3,a);return;}
            #if 0
            { }
            #endif
            # 3 "x.cu"


            #pragma GCC diagnostic push
            #pragma GCC diagnostic ignored "-Wunused-parameter"
            template<class T, class U = int> static void __wrapper__device_stub_kd(T &__T4, U &__T5) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<class T, class U = int> static void kd(T __T4, U __T5= U()) {__wrapper__device_stub_kd<T,U>(__T4,__T5);return;}
            #if 0
            { }
            #endif
            # 4 "x.cu"

        "##]],
    );
}
