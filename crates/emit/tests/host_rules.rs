//! Snapshot tests of the host file, one small input per rule of spec 30 §2 /
//! spec 20 §9. Only the part after the header is shown (the header has its
//! own test); inputs are written as the preprocessed text cudafe++ reads.

use cufront_emit::host::{HostOptions, header, host_file, trailer};
use cufront_syntax::ParseOptions;
use cufront_syntax::source_map::SourceMap;
use expect_test::{Expect, expect};

fn opts() -> HostOptions {
    HostOptions {
        gnu_version: Some(120200),
        static_host_stub: true,
        extended_lambda: false,
        device_hidden_visibility: true,
        device_c: false,
        debug_mode: false,
        stub_file_name: "x.cudafe1.stub.c".into(),
        module_id: "_0_4_x_cu_k".into(),
    }
}

fn check_with(src: &str, o: &HostOptions, want: Expect) {
    let text = format!("# 1 \"x.cu\"\n{src}");
    let parse = cufront_syntax::parse(&text, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let map = SourceMap::new(&text, "x.ii");
    let host = host_file(&text, &parse.syntax_node(), &map, o);
    let body = host
        .text
        .strip_prefix(&header(o, "x.cu"))
        .expect("header first");
    let body = body.strip_suffix(&trailer(o)).expect("trailer last");
    // Trailing spaces (the column padding after a line directive) are not shown.
    let mut shown: String = body
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
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
            template<typename T, int N> static void __wrapper__device_stub_kt(T * &p, T &v) { ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}
            #pragma GCC diagnostic pop
            template<typename T, int N> static void kt(T * p, T v) {__wrapper__device_stub_kt<T,N>(p,v);return;}
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
    let o = HostOptions {
        device_c: true,
        static_host_stub: false,
        ..opts()
    };
    check_with(
        "__attribute__((device)) int d = 1;\nstatic __attribute__((device)) int s;\n",
        &o,
        expect![[r#"
            # 1 "x.cu"
            __attribute__((visibility("hidden")))  int d ;
            static  int s;
        "#]],
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
}

#[test]
fn unsupported_constructs_are_reported() {
    check(
        "__attribute__((managed)) int m;\nvoid h() { auto l = [] __attribute__((device)) (int x) { return x; }; }\n",
        expect![[r##"
            # 1 "x.cu"
             int m;
            void h() { auto l = []  (int x) { return x; }; }
            unsupported at 11..42: __managed__ variables are not supported yet
            unsupported at 63..111: extended lambdas (__device__ or __host__ __device__ lambdas) are not supported yet
        "##]],
    );
}

#[test]
fn header_variants() {
    let h = header(&opts(), "x.cu");
    assert!(h.starts_with("# 1 \"x.cu\"\n#pragma GCC diagnostic ignored \"-Wunused-local-typedefs\"\n# 1\n\n#pragma GCC diagnostic ignored \"-Wattributes\"\n#pragma GCC diagnostic push\n"));
    assert!(h.ends_with("#endif\n\n# 1\n"));
    let old = header(
        &HostOptions {
            gnu_version: Some(40100),
            static_host_stub: false,
            ..opts()
        },
        "x.cu",
    );
    assert!(old.starts_with("# 1 \"x.cu\"\nstatic char __nv_inited_managed_rt"));
    let el = header(
        &HostOptions {
            extended_lambda: true,
            ..opts()
        },
        "x.cu",
    );
    assert!(el.ends_with("\"-Wunused-variable\"\n\n# 1\n# 1\n"));
}
