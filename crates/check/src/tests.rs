use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, new_options, new_translation_unit};
use cufront_diagnostics::Arg;
use expect_test::{Expect, expect};

use crate::Options;

/// The host pass's findings on `text` (CUDA keywords spelt as nvcc's
/// preprocessing leaves them), one per line: `line:col number args | once-erred args`.
fn check(text: &str, opts: Options, want: Expect) {
    run(text, LangStandard::Cxx17, opts, want, crate::host_pass)
}

/// `check` in C++20 (`consteval`, `concept`, designated initializers' rules).
fn check20(text: &str, opts: Options, want: Expect) {
    run(text, LangStandard::Cxx20, opts, want, crate::host_pass)
}

/// The same for the device pass (cicc's front end); late findings are marked.
fn check_device(text: &str, opts: Options, want: Expect) {
    run(text, LangStandard::Cxx17, opts, want, crate::device_pass)
}

fn run(
    text: &str,
    standard: LangStandard,
    opts: Options,
    want: Expect,
    pass: fn(&dyn cufront_base_db::SourceDatabase, cufront_base_db::TranslationUnit, Options) -> Vec<crate::Found>,
) {
    let text = text
        .replace("__device__", "__attribute__((device))")
        .replace("__host__", "__attribute__((host))")
        .replace("__global__", "__attribute__((global))")
        .replace("__shared__", "__attribute__((shared))")
        .replace("__constant__", "__attribute__((constant))")
        .replace("__managed__", "__attribute__((managed))");
    let db = RootDatabase::new();
    // Lazy bodies, as every consumer parses.
    let lang = new_options(&db, LangOptions { standard, lazy_bodies: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "t.ii".into(), Arc::from(text.as_str()), lang);
    let mut out = String::new();
    let args = |a: &[Arg]| {
        a.iter()
            .map(|a| match a {
                Arg::Str(s) => format!("\"{s}\""),
                Arg::Entity(e) => format!("{:?} \"{}\"", e.kind, e.name),
                other => format!("{other:?}"),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    for f in pass(&db, tu, opts) {
        let before = &text[..f.at as usize];
        let line = before.matches('\n').count() + 1;
        let col = f.at as usize - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        let late = if f.late { " late" } else { "" };
        out.push_str(&format!("{line}:{col}{late} {} {}", f.id.display(), args(&f.args)));
        if let Some(o) = &f.args_once_erred {
            out.push_str(&format!(" | {}", args(o)));
        }
        for c in &f.context {
            let at = match &c.at {
                cufront_diagnostics::Pos::At { line, .. } => line.to_string(),
                cufront_diagnostics::Pos::EndOfSource => "end".into(),
            };
            out.push_str(&format!(" <- {} at {at}", c.entity.with_template_args.as_deref().unwrap_or(&c.entity.name)));
        }
        out.push('\n');
        if f.id.0 == 349 {
            // `operand types are: S + int`.
            for line in &f.continuation {
                if let cufront_diagnostics::Message::Template { args: a, .. } = line {
                    out.push_str(&format!("    {}\n", args(a)));
                }
            }
        }
    }
    want.assert_eq(&out);
}

#[test]
fn device_calls_from_host_code() {
    check(
        r#"
__device__ int d0() { return 1; }
__device__ int d1(int x) { return x; }
__device__ int d2(const int *p, float &f, unsigned long long z, const char* s) { return 0; }
namespace Q { struct S { __device__ int m(int) const; static __device__ void sm(); }; }
__device__ constexpr int cd(int x) { return x; }
__global__ void k(int) {}
__host__ __device__ int hd0() { return 0; }
void h1() { d0(); hd0(); }
void h2() { d1(3); d0(); }
__host__ __device__ void hd() { d0(); int a = 0; float f; d2(&a, f, 2, ""); }
void h3(Q::S s) { s.m(1); Q::S::sm(); cd(2); k(1); h1<<<1,1>>>(); k<<<1,1>>>(1); }
void h4() { auto l = [] { return d0(); }; l(); }
__device__ void dd() { d0(); auto l = [] { d0(); }; l(); k(2); }
"#,
        Options::default(),
        expect![[r#"
            9:13 20007 "d0()" "h1"
            10:13 20007 "d1(int)" "h2" | "_Z2d11?" "h2"
            10:20 20007 "d0()" "h2"
            11:59 20005 "d0()" "hd"
            11:85 20005 "d2(const int *, float &, unsigned long long, const char *)" "hd" | "_Z2d21?1?1?1?" "hd"
            12:21 20007 "Q::S::m(int) const" "h3" | "_ZNK1Q1S1mE1?" "h3"
            12:27 20007 "Q::S::sm()" "h3"
            12:39 20008 "cd(int)" "h3" | "_Z2cd1?" "h3"
            12:46 20051 "__global__" "must"
            12:52 20051 "host" "cannot"
            13:34 20007 "d0()" "operator()"
            14:71 20051 "__global__" "must"
        "#]],
    );
}

#[test]
fn relaxed_constexpr_allows_constexpr_callees() {
    check(
        "__device__ constexpr int cd(int x) { return x; }\nvoid h() { cd(2); }\n",
        Options { relaxed_constexpr: true, ..Options::default() },
        expect![[""]],
    );
}

#[test]
fn constructors_destructors_and_operators() {
    check(
        r#"
struct D { __device__ D(); __device__ D(int); __device__ ~D(); __device__ int operator+=(int); __device__ int operator()(int); __device__ int g(); };
__device__ int operator-(D, int);
void h1() {
    D d;
}
void h2(D& d) {
  d += 1;
  d(2);
  d - 3;
}
void h3(D* p) {
  p->g();
}
"#,
        Options::default(),
        expect![[r#"
            5:7 20007 "D::~D()" "h1"
            5:7 20007 "D::D()" "h1"
            8:5 20007 "D::operator +=(int)" "h2" | "_ZN1DpLE1?" "h2"
            9:4 20007 "D::operator ()(int)" "h2" | "_ZN1DclE1?" "h2"
            9:4 20007 "D::operator ()(int)" "h2" | "_ZN1DclE1?" "h2"
            10:5 20007 "operator -(    ::D, int)" "h2" | "_Zmi1?1?" "h2"
            13:6 20007 "D::g()" "h3"
        "#]],
    );
}

#[test]
fn kernel_signatures() {
    check(
        r#"
__global__ int k1() { return 0; }
__global__ auto k2() {}
__global__ void k3(int, ...) {}
struct S { __global__ void m(); static __global__ void sm(); };
struct T { __global__ void operator()(int); };
__global__ void k4() noexcept {}
inline __global__ void k5() {}
struct F { friend __global__ void kf() {} };
__global__ void k6();
typedef void V;
__global__ V k7() {}
template <class T> __global__ T k8() {}
template <class T> __global__ int k9() {}
"#,
        Options::default(),
        expect![[r#"
            2:16 20048 
            3:16 20049 
            4:16 20046 
            5:27 20231 
            5:68 20231 
            6:27 20187 
            6:27 20231 
            7:16 20190 
            8:23 20050 "__global__"
            9:34 20050 "__global__"
            9:12 20186 
        "#]],
    );
}

#[test]
fn memory_spaces_of_variables() {
    check(
        r#"
void h() {
  __shared__ int a;
  static __device__ int b;
  __device__ int c;
  __managed__ int d;
  static __managed__ int d2;
}
__shared__ int e = 1;
__shared__ __constant__ int f;
__managed__ const int g = 1;
__managed__ __shared__ int g2;
__global__ void k() { __shared__ int s = 2; __shared__ int ok; }
__host__ __device__ void hd() { __shared__ int x; }
__device__ void dd() { __shared__ int y; static __device__ int z; }
"#,
        Options::default(),
        expect![[r#"
            3:31 20026 "a static" "__shared__"
            4:38 20026 "a static" "__device__"
            5:31 20026 "an automatic" "__device__"
            6:32 20026 "an automatic" "__managed__"
            7:39 20026 "a static" "__managed__"
            9:29 20053 "__shared__" ""
            10:40 20024 
            11:36 20109 
            12:54 20111 
            13:64 20053 "__shared__" ""
            14:87 20026 "a static" "__shared__"
        "#]],
    );
}

#[test]
fn device_variables_in_host_code() {
    check(
        r#"
__device__ int dv;
__device__ const int dc = 1;
__managed__ int mv;
__shared__ int sv;
__constant__ int cv;
__device__ int arr[4];
struct P { int a; };
__device__ P pv;
void f(int&); void g(int); void k(const int&);
int h() {
  dv += 1;
  dv++;
  int s = sizeof(dv);
  int y = dc + mv + cv;
  sv = 1;
  int z = arr[1];
  int *q = &dv;
  int *r = &sv;
  int w = pv.a;
  int& ref = dv;
  f(dv); g(dv); k(dv);
  int *decayed = arr;
  arr[2] = 1;
  if (dv) {}
  return dv;
}
__host__ __device__ void hd() { int x = dv; }
__device__ void dd() { int x = dv; }
"#,
        Options::default(),
        expect![[r#"
            12:3 20091 "__device__" Some(Variable) "dv"
            12:3 20092 "__device__" Some(Variable) "dv"
            13:3 20091 "__device__" Some(Variable) "dv"
            13:3 20092 "__device__" Some(Variable) "dv"
            15:21 20091 "__constant__" Some(Variable) "cv"
            16:3 20092 "__shared__" Some(Variable) "sv"
            17:11 20091 "__device__" Some(Variable) "arr"
            19:13 20093 "__shared__" Some(Variable) "sv"
            20:11 20091 "__device__" Some(Variable) "pv"
            22:12 20091 "__device__" Some(Variable) "dv"
            24:3 20092 "__device__" Some(Variable) "arr"
            25:7 20091 "__device__" Some(Variable) "dv"
            26:10 20091 "__device__" Some(Variable) "dv"
            28:67 20091 "__device__" Some(Variable) "dv"
        "#]],
    );
}

#[test]
fn override_spaces_and_defaulted_annotations() {
    check(
        r#"
struct B { virtual void h(); __device__ virtual void d(); __host__ __device__ virtual void hd(); virtual void same(int); };
struct D : B { __device__ void h() override; void d() override; __device__ void hd() override; void same(int); };
struct E : D { void h(); };
struct A { __device__ A() = default; __host__ __device__ ~A() = default; };
struct V { __device__ virtual ~V() = default; };
"#,
        Options::default(),
        expect![[r#"
            3:45 20085 Some(Function) "B::h" Some(Function) "D::h"
            3:64 20088 Some(Function) "B::d" Some(Function) "D::d"
            3:107 20090 Some(Function) "B::hd" Some(Function) "D::hd"
            4:21 20088 Some(Function) "D::h" Some(Function) "E::h"
            5:27 20012 "__device__" "A"
            5:66 20012 "__host__" "~A"
            5:88 20012 "__device__" "~A"
        "#]],
    );
}

#[test]
fn undefined_identifiers() {
    check(
        r#"
int declared_later();
struct S { int member; };
int h(S s) {
  int a = undefined_x + 1;
  undefined_x = 2;
  foo(3);
  int m = s.member + declared_later();
  return undefined_x;
}
int g() { return undefined_x; }
__global__ void k() { int q = blah; }
void uses_a_member_name() { member = 1; }
void labels() { goto out; out: return; }
template <class T> void t(T x) { adl_found_later(x); }
int declared_later() { return 0; }
"#,
        Options::default(),
        expect![[r#"
            5:11 20 "undefined_x"
            7:3 20 "foo"
            11:18 20 "undefined_x"
            12:44 20 "blah"
        "#]],
    );
}

#[test]
fn failing_static_asserts() {
    check(
        r#"
struct S { int a; double b; };
static_assert(sizeof(S) == 12, "S must be 12 bytes");
static_assert(sizeof(S) == 16, "fine");
static_assert(sizeof(int) == 8);
void f() { static_assert(1 + 1 == 3, "math"); }
template <class T> void g() { static_assert(sizeof(T) == 3, "dependent"); }
struct C { static_assert(sizeof(C*) == 4, "in a class"); };
"#,
        Options::default(),
        expect![[r#"
            3:1 1574 "S must be 12 bytes"
            5:1 2784 
            6:12 1574 "math"
            8:12 1574 "in a class"
        "#]],
    );
}

#[test]
fn device_pass_host_calls_and_variables() {
    check_device(
        r#"
int host_fn(int x) { return x; }
int hv;
const int hc = 1;
struct H { H(); int m(int); };
__device__ int d1() { return host_fn(1); }
__global__ void k1() { host_fn(2); }
__host__ __device__ int hd1() { return host_fn(3); }
__device__ int d3() { return hv + hc; }
__device__ void d4(H* h) { h->m(1); }
__device__ void d5() { H h; }
"#,
        Options::default(),
        expect![[r#"
            9:43 20094 Some(Variable) "hv"
            6:43 late 20016 "host_fn(int)" "d1"
            6:43 late 20068 "host_fn"
            8:66 late 20011 "host_fn(int)" "hd1"
            9:43 late 20068 "hv"
            10:44 late 20016 "H::m(int)" "d4"
            10:44 late 20068 "H::m"
            11:39 late 20016 "H::H()" "d5"
            11:39 late 20068 "H::H"
            7:37 late 20018 "host_fn(int)" "k1"
            7:37 late 20068 "host_fn"
        "#]],
    );
    check_device(
        "constexpr int ce_host(int x) { return x; }\nint host_fn();\n__device__ int d2() { return ce_host(4) + host_fn(); }\n",
        Options::default(),
        expect![[r#"
            3:43 20017 "ce_host" "d2"
        "#]],
    );
}

#[test]
fn launch_attributes_and_main() {
    check(
        r#"
__device__ __attribute__((launch_bounds(128))) void d1() {}
struct S { __global__ __attribute__((launch_bounds(64))) void m(); };
__device__ __attribute__((maxnreg(32))) void d2() {}
__global__ __attribute__((launch_bounds(128))) __attribute__((maxnreg(32))) void k1() {}
__device__ __attribute__((cluster_dims(2,1,1))) void d3() {}
__device__ __attribute__((cluster_dims())) void d4() {}
__global__ __attribute__((launch_bounds(128, 2))) void k2() {}
__device__ int main() { return 0; }
"#,
        Options::default(),
        expect![[r#"
            2:66 20077 "__launch_bounds__"
            3:27 20231 
            3:51 20078 "__launch_bounds__"
            4:59 20258 "__maxnreg__"
            5:95 20262 "__launch_bounds__ and __maxnreg__"
            6:67 20077 "__cluster_dims__"
            9:16 20081 
        "#]],
    );
}

#[test]
fn unreferenced_variables_in_the_device_pass() {
    check_device(
        r#"
__device__ int dv;
struct C { C(); };
int h() {
  int s = sizeof(dv);
  int used = 1;
  int *q = &used;
  C c;
  static int st;
  int captured = 2;
  auto l = [captured] { return captured; };
  return 0;
}
__global__ void k() { float unused_f; }
"#,
        Options::default(),
        expect![[r#"
            5:7 177 Some(Variable) "s"
            7:8 177 Some(Variable) "q"
            11:8 177 Some(Variable) "l"
            14:42 177 Some(Variable) "unused_f"
        "#]],
    );
}

#[test]
fn launches_with_converted_arguments() {
    // Arguments converted by host functions at a launch are not the
    // launched function (extended lambdas become wrapper objects).
    check(
        r#"
struct W { W(int); };
template <typename F> __global__ void kern(F f) {}
__global__ void kw(W w) {}
void run() { kern<<<1, 1>>>(1); kw<<<1, 1>>>(2); }
"#,
        Options::default(),
        expect![[""]],
    );
}

/// Every case checked against the real nvcc (CUDA 13.0): `missing return`
/// where control certainly reaches the closing brace, silence where a
/// path ends, a constant decides, or the model cannot say.
#[test]
fn missing_returns() {
    let text = r#"
int f1() {}
__host__ __device__ int hd_fn(int x) { if (x) return 1; }
__device__ int dev_fn() { int x = 1; }
int f3(int x) { if (x) return 1; else return 2; }
int f4(int x) { while (1) { } }
int f5(int x) { for (;;) { if (x) break; } }
int f6(int x) { switch (x) { case 1: return 1; default: return 2; } }
int f7(int x) { switch (x) { case 1: return 1; } }
void g();
int f8() { g(); }
[[noreturn]] void nr();
int f9() { nr(); }
extern "C" void exit(int) __attribute__((__noreturn__));
int f10() { exit(1); }
int f11() { throw 1; }
int f12(int x) { do { return 1; } while (x); }
int f13(int x) { { return 1; } }
int f14(int x) { goto L; L: return 1; }
int f15(int x) { L: if (x) goto L; }
template <class T> T f16() { }
int f17(int x) { try { return 1; } catch (...) { } }
int f18(int x) { while (x) { return 1; } }
int f19(int x) { if (1) return 1; }
int f20(int x) { __builtin_unreachable(); }
struct S { int m() { } int n() const; operator int() { } };
int S::n() const { }
int main() { }
int c1(int x) { if (0) return 1; }
int c2(int x) { if (x > 0) return 1; else if (x < 0) return 2; else return 3; }
int c3(int x) { while (true) { if (x) return 1; } }
int c4(int x) { do { } while (1); }
int c5(int x) { switch (x) { default: return 1; case 2: break; } }
int c6(int x) { switch (x) { default: return 1; case 2: ; } }
int c7(int x) { for (;;) ; }
int c8(int x) { while (1) { continue; } }
int c9(int x) { { L: ; } goto L; }
int c10(int x) { if (x) throw 1; else return 2; }
int c11(int x) { switch (x) { case 1: { return 1; } default: { return 2; } } }
int c12(int x) { while (x > 0 && 1) { } }
int c13(int x) { if constexpr (true) return 1; }
int c14(int x) { const bool b = true; while (b) { } }
enum E { A, B };
int c15(E e) { switch (e) { case A: return 1; case B: return 2; } }
int c16(int x) { static_cast<void>(x); }
namespace N { int c17(int *p) { for (int i = 0; i < 3; ++i) { if (p[i]) return i; } } }
typedef void V;
V c18() { }
auto c19() { }
int c20(int x) { unknown_fn(x); }
"#;
    check(
        text,
        Options::default(),
        expect![[r#"
            2:11 940 Some(Function) "f1"
            3:83 940 Some(Function) "hd_fn"
            7:44 940 Some(Function) "f5"
            9:50 940 Some(Function) "f7"
            11:17 940 Some(Function) "f8"
            20:36 940 Some(Function) "f15"
            22:52 940 Some(Function) "f17"
            23:42 940 Some(Function) "f18"
            26:22 940 Some(Function) "S::m"
            26:56 940 Some(Function) "S::operator int"
            27:20 940 Some(Function) "S::n"
            29:34 940 Some(Function) "c1"
            33:66 940 Some(Function) "c5"
            34:61 940 Some(Function) "c6"
            40:41 940 Some(Function) "c12"
            44:67 940 Some(Function) "c15"
            45:40 940 Some(Function) "c16"
            46:85 940 Some(Function) "N::c17"
            50:18 20 "unknown_fn"
        "#]],
    );
}

/// cicc reports a missing return for every function, host ones too, before
/// the function's unreferenced variables.
#[test]
fn missing_returns_in_the_device_pass() {
    check_device(
        r#"
int f1() {}
__device__ int dev_fn() { int x = 1; }
__host__ __device__ int hd_fn(int x) { if (x) return 1; }
"#,
        Options::default(),
        expect![[r#"
            2:11 940 Some(Function) "f1"
            3:51 940 Some(Function) "dev_fn"
            3:44 177 Some(Variable) "x"
            4:83 940 Some(Function) "hd_fn"
        "#]],
    );
}

/// Checked against the real nvcc: every unmodifiable operand it reports,
/// none of the modifiable ones.
#[test]
fn unmodifiable_operands() {
    check(
        r#"
int g();
int& gr();
struct S { int x; mutable int m; void set() const { x = 1; } void ok() const { m = 1; } static int sx; };
void h1() { g() = 2; }
void h2() { const int x = 1; x = 2; }
void h3(const int* p) { *p = 3; p[0] += 1; }
void h4() { gr() = 1; int a = 0; (a) = 2; a++; const int c = 0; c++; --c; }
void h5(const S& s) { s.x = 1; s.m = 2; S::sx = 3; }
enum E { A }; void h6() { A = A; }
void h7(int* const q) { *q = 1; q = 0; }
void h8() { 5 = 1; int arr[2]; arr = arr; }
void h9() { const int x = 1; x += 2; }
__constant__ int cv;
__device__ void dev_fn() { cv = 1; }
"#,
        Options::default(),
        expect![[r#"
            4:53 137 
            5:13 137 
            6:30 137 
            7:25 137 
            7:33 137 
            8:65 137 
            8:72 137 
            9:23 137 
            10:27 137 
            11:33 137 
            12:13 137 
            12:32 137 
            13:30 137 
            15:41 137 
        "#]],
    );
}

/// Modifiable operands in their many forms: silent, as nvcc is.
#[test]
fn modifiable_operands() {
    check(
        r#"
struct P { int m; int& ref(); int operator[](int) const; int& at(int); };
struct Q { P p; P* pp; int arr[3]; };
int& gr();
void h(bool c, int* ip, P* pp, const P* cp, Q q, Q* qp, void* vp) {
  int a = 0, b = 0;
  int& r = a; r = 1;
  const int* p = 0; p = ip;
  int arr[3]; arr[0] = 1; arr[1]++;
  (c ? a : b) = 1;
  (a, b) = 1;
  (++a) = 2;
  (a = 1) = 2;
  *ip++ = 1;
  pp->m = 1; pp->ref() = 2; pp->at(1) = 3;
}
void h2(bool c, int* ip, P* pp, Q q, Q* qp, void* vp) {
  int a = 0;
  static_cast<int&>(a) = 1;
  reinterpret_cast<int*>(vp)[0] = 1;
  *(int*)vp = 1;
  q.p.m = 1; q.pp->m = 2; q.arr[1] = 3; qp->arr[2] += 1;
  gr() = 1; gr()++;
  volatile int v = 0; v = 1; v++;
  struct B { int x : 3; } bf; bf.x = 1;
  a <<= 1; a |= 2;
  int* const* cpp = 0; **cpp = 1;
  enum E { X, Y } e = X; e = Y;
  double d; d = 1; d /= 2;
  bool flag = false; flag = true;
  char buf[4]; buf[0] = 'a'; *buf = 'b';
  int P::*mp = &P::m; pp->*mp = 4; q.p.*mp = 5;
}
__device__ void dk(int* o, int i) { __shared__ int s[4]; s[0] = 1; o[i] = s[0]; }
"#,
        Options::default(),
        expect![[r#""#]],
    );
}

/// Checked against the real nvcc (each finding, and silence elsewhere).
#[test]
fn constant_folding_warnings() {
    check(
        r#"
unsigned u1 = -1;
unsigned u2 = (unsigned)-1;
unsigned u3 = 1 - 2;
unsigned char uc = -1;
char c1 = 1000;
char c2 = 200;
unsigned char uc2 = 300;
short s1 = 70000;
int i1 = 2147483647 + 1;
int i2 = 1 << 40;
int i3 = 1 / 0;
int i4 = 3000000000;
long l1 = 3000000000;
unsigned u4 = 4294967296;
void f(unsigned);
void g(int x, unsigned v) { f(-1); unsigned a = -2; a = -3; unsigned b(-4); unsigned short us = -5; int q = x % 0; bool z = v < 0; bool y = v >= 0; bool w = 0 > v; bool k = v <= 0; }
unsigned h() { return -1; }
float fl = 1e40;
int neg = -2147483648;
unsigned long long ull = -1LL;
typedef unsigned long size_t;
size_t sz = -1;
int e = 'a' * 1000000000;
"#,
        Options::default(),
        expect![[r#"
            2:15 68 
            4:15 68 
            5:20 68 
            6:11 69 
            7:11 68 
            8:21 69 
            9:12 69 
            10:21 61 
            11:15 63 
            12:12 39 
            13:10 68 
            15:15 69 
            17:31 68 
            17:49 68 
            17:57 68 
            17:72 68 
            17:97 68 
            17:113 179 
            17:127 186 
            17:143 186 
            17:160 186 
            18:23 68 
            21:26 68 
            23:13 68 
            24:13 61 
        "#]],
    );
}

/// cicc repeats the declaration warnings of cudafe++ (20050, 20012) and
/// rejects a `constexpr` kernel.
#[test]
fn declaration_warnings_in_the_device_pass() {
    check_device(
        r#"
__global__ inline void k1() {}
__global__ constexpr void k2() {}
struct S { __device__ S() = default; };
"#,
        Options::default(),
        expect![[r#"
            2:16 20050 "__global__"
            3:16 20050 "__global__"
            3:40 20118 
            4:27 20012 "__device__" "S"
        "#]],
    );
}

/// Bit patterns are not warned, a cast's result or a shift is; an
/// overflowing operation warns once (61, no conversion warning).
/// Checked against the real nvcc.
#[test]
fn constant_bit_patterns() {
    check(
        r#"
unsigned a = 1 << 31;
unsigned b = (1 << 31) | 1;
unsigned c = -(1 << 3);
unsigned d = ~0;
unsigned e = 0x80000000 | 1;
int f2 = 0xFFFFFFFF;
unsigned g2 = ~0u;
unsigned h2 = (int)0x80000000;
unsigned i2 = (256 << 23);
unsigned j2 = (256 << 23) | 1;
unsigned k2 = 1 - 2 + 0;
unsigned l2 = -1 * 1;
unsigned m2 = 1 ? -1 : 2;
unsigned n2 = (unsigned char)-1 - 300;
int o2 = 1 << 32;
long p2 = 1L << 63;
unsigned q2 = 2147483647 * 2;
"#,
        Options::default(),
        expect![[r#"
            2:14 68 
            4:14 68 
            9:15 68 
            10:16 68 
            12:15 68 
            13:15 68 
            15:15 68 
            16:15 63 
            18:26 61 
        "#]],
    );
}

/// Second definitions of functions and variables; checked against the
/// real nvcc (overloads and a declaration then a definition are no
/// redefinitions; host and device definitions of one signature are).
#[test]
fn redefinitions() {
    check(
        r#"
int f() { return 1; }
int f() { return 2; }
int x;
double x;
namespace N { void g(int) {} void g(int) {} void g(float) {} }
extern int y;
int y = 1;
void h();
void h() {}
__device__ void d() {}
__host__ void d() {}
"#,
        Options::default(),
        expect![[r#"
            3:5 3369 Some(Function) "f" Pos(At { file: "t.ii", line: 2 })
            5:8 3369 Some(Variable) "x" Pos(At { file: "t.ii", line: 4 })
            6:35 3369 Some(Function) "N::g" Pos(At { file: "t.ii", line: 6 })
            12:28 3369 Some(Function) "d" Pos(At { file: "t.ii", line: 11 })
        "#]],
    );
}

/// Checked against the real nvcc; enumerators are not folded (EDG reports
/// `case A:` twice too).
#[test]
fn duplicate_case_labels() {
    check(
        r#"
enum E { A, B };
int host_fn(int v) { switch (v) { case 1: return 1; case 1: return 2; } return 0; }
int g(int v) { switch (v) { case 'a': case 97: break; case 2+1: case 3: break; default: break; } switch (v) { case 1: switch (v) { case 1: break; } } return 0; }
int h(E e) { switch (e) { case A: case B: case A: break; } return 0; }
"#,
        Options::default(),
        expect![[r#"
            3:58 1578 Pos(At { file: "t.ii", line: 3 })
            4:44 1578 Pos(At { file: "t.ii", line: 4 })
            4:70 1578 Pos(At { file: "t.ii", line: 4 })
        "#]],
    );
}

#[test]
fn uncertain_places() {
    let text = "int g(int);\ntemplate <class T> T tf(T x) { return x; }\nint f(int x) { if (x) return unknown(x); }\nint h(int x) { return g(x) + tf(x); }\n";
    let db = RootDatabase::new();
    let lang =
        new_options(&db, LangOptions { standard: LangStandard::Cxx17, lazy_bodies: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "t.ii".into(), Arc::from(text), lang);
    let got: Vec<String> = crate::uncertain(&db, tu).iter().map(|u| format!("{} {:?}", u.at, u.reason)).collect();
    expect![[r#"
        [
            "33 NotInferred(\"a function template\")",
            "84 UnresolvedCall(\"unresolved name `unknown`\")",
            "96 UndecidedReturn",
        ]
    "#]]
    .assert_debug_eq(&got);
}

/// Braced initializers: floating literals narrowed (2361), integer
/// constants warned as in copy-initialization, an aggregate's elements.
/// Checked against the real nvcc.
#[test]
fn braced_initializers() {
    check(
        r#"
int x{1.5};
struct P { int a; };
P p{2.5};
void f() { int y{2.5}; char c{300}; unsigned u{-1}; int z = {3.5}; float fl{1e300}; long l{2}; double d{1}; int w{1.0f}; }
"#,
        Options::default(),
        expect![[r#"
            2:7 2361 Type { spelling: "double", aka: None } Type { spelling: "int", aka: None }
            4:5 2361 Type { spelling: "double", aka: None } Type { spelling: "int", aka: None }
            5:18 2361 Type { spelling: "double", aka: None } Type { spelling: "int", aka: None }
            5:31 69 
            5:48 68 
            5:62 2361 Type { spelling: "double", aka: None } Type { spelling: "int", aka: None }
            5:115 2361 Type { spelling: "float", aka: None } Type { spelling: "int", aka: None }
        "#]],
    );
}

/// Checked against the real nvcc: non-constant variables where constants
/// are required, each with its note (`const` ones are left alone), and a
/// `constexpr` variable initialized by a call of a non-`constexpr` function.
#[test]
fn non_constant_operands() {
    check(
        r#"
int n = 3;
int arr[n];
template <int N> struct A {};
A<n> a;
namespace Q { int m = 2; float b[m]; }
const int c = 2; int ok[c];
constexpr int k = 4; A<k> ak;
__global__ void __attribute__((launch_bounds(n))) kern() {}
__global__ void __attribute__((launch_bounds(k, c))) kern2() {}
int g();
constexpr int h() { return 1; }
constexpr int x = g();
constexpr int y = h();
"#,
        Options::default(),
        expect![[r#"
            3:9 28 
            3:9 2689 Some(Variable) "n"
            5:3 28 
            5:3 2689 Some(Variable) "n"
            6:34 28 
            6:34 2689 Some(Variable) "Q::m"
            9:59 28 
            9:59 2689 Some(Variable) "n"
            13:19 28 
            13:19 2703 Some(Function) "g"
        "#]],
    );
}

/// Checked against the real nvcc (member calls are not checked yet; a
/// variadic function takes any number beyond its parameters).
#[test]
fn argument_counts() {
    check(
        r#"
void f(int);
void g(int, int = 2);
struct S { void m(int); static void sm(); };
void h(S s) { f(1, 2); f(); g(1, 2, 3); g(); s.m(1, 2); s.m(); S::sm(3); }
void v(int, ...);
void k() { v(1, 2, 3); v(); }
int add(int a, int b);
int one(int a);
int host_fn() { return add(1) + one(1, 2); }
void ov(int); void ov(int, int);
void o() { ov(1, 2, 3); }
"#,
        Options::default(),
        expect![[r#"
            5:20 140 
            5:26 165 
            5:37 140 
            5:43 165 
            7:26 165 
            10:29 165 
            10:40 140 
            12:12 304 Some(OverloadedFunction) "ov"
            11:20 3322 Some(Function) "ov(int, int)"
            11:6 3322 Some(Function) "ov(int)"
        "#]],
    );
}

/// Checked against the real nvcc: uninitialized `const` scalars and
/// references (a `const` class object has another message: left out).
#[test]
fn required_initializers() {
    check(
        r#"
const int a;
int& r;
extern const int b;
extern int& rb;
struct S { const int m; int& rm; static const int sm; };
void f() { const int x; int& y; static const int z; const int w = 1; int v = 0; int& u = v; (void)u; }
struct T { int t; };
const T ct;
const int arr[3];
constexpr int ce = 1;
template <class X> void g() { const X q; }
namespace N { const long nl; }
void e() { extern const int ex; int a = 0, &ra = a; (void)ra; }
const long char bad;
void e2() { const long char bad2; const unsigned long long ull; const long double ld; }
"#,
        Options::default(),
        expect![[r#"
            2:12 257 Some(Variable) "a"
            3:7 252 Some(Variable) "r"
            7:23 257 Some(Variable) "x"
            7:31 252 Some(Variable) "y"
            7:51 257 Some(Variable) "z"
            10:17 257 Some(Variable) "arr"
            13:28 257 Some(Variable) "N::nl"
            16:63 257 Some(Variable) "ull"
            16:85 257 Some(Variable) "ld"
        "#]],
    );
}

#[test]
fn operands_of_the_wrong_type() {
    check(
        r#"
namespace ns { typedef int T; struct S { int a; void m(); static int st; enum { E1 }; typedef int I; union { int u; }; }; }
struct D : ns::S { using S::a; };
struct Conv { operator int(); };
struct DConv : Conv {};
struct Empty {};
union U { int a; };
typedef unsigned long size_t;
void f(ns::T t, const int ci, size_t z, int *p, double d, D obj, U u, D *pd, Empty e, DConv dc, void *vp) {
  t.x; ci.x; z.x; p.x; (t + 1).x;
  obj.a; obj.m(); obj.st; obj.E1; obj.u; obj.I; obj.nope; u.zz; pd->zz; pd->a; obj.D::a;
  *ci; *z; *d; *p; *vp;
  t[0]; d[1]; p[0]; 0[p]; vp[0];
  t(); p(); d(); vp();
  if (e) {} while (e) {} for (; e;) {} do {} while (e); int x = e ? 1 : 2;
  if (dc) {} if (obj) {} if (p) {}
}
template <class T> void g(T t, Empty e) { t.x; *t; if (e) {} }
"#,
        Options::default(),
        expect![[r#"
            10:3 153 Type { spelling: "ns::T", aka: Some("int") }
            10:8 153 Type { spelling: "const int", aka: None }
            10:14 153 Type { spelling: "size_t", aka: Some("unsigned long") }
            10:19 153 Type { spelling: "int *", aka: None }
            10:24 153 Type { spelling: "int", aka: None }
            11:53 135 Some(Class) "D" "nope"
            11:61 135 Some(Union) "U" "zz"
            11:69 135 Some(Class) "D" "zz"
            12:4 75 Type { spelling: "int", aka: None }
            12:9 75 Type { spelling: "size_t", aka: Some("unsigned long") }
            12:13 75 Type { spelling: "double", aka: None }
            13:5 142 Type { spelling: "int", aka: None }
            13:9 142 Type { spelling: "double", aka: None }
            14:3 109 
            14:8 109 
            14:13 109 
            14:18 109 
            15:7 711 
            15:20 711 
            15:33 711 
            15:53 711 
            15:65 711 
            16:18 711 
        "#]],
    );
}

#[test]
fn conversions_that_cannot_exist() {
    check(
        r#"
struct A {};
struct B { operator int(); };
typedef unsigned long sz;
typedef int *IP;
void take(int);
void takep(int *);
void two(int *, double *);
void td(sz *, IP);
void over(int); void over(int *);
int *r1() { return 1.0; }
int *r2() { return 0; }
int r3() { return A(); }
int r4() { return B(); }
const int *r5(int *p) { return p; }
void *r6(int *p) { return p; }
int *r7(const int *p) { return p; }
long r8(int *p) { return p; }
int r9() { auto l = []() -> int * { return nullptr; }; return 1; }
void g(int *ip, double *dp, double d, int i, const int ci) {
  take(A()); take(B()); takep(1.5); takep(0); takep(dp); two(1.5, 2.5); td(&i, &d); over(1.5);
  double *p1 = ip; int *p2 = 1; int *p3 = 0; long l = ip; bool b = ip; int *a = i; int *c = ci; int *e = false;
  IP g = &d; sz *h = ip; const int *k = ip; void *v = (const int *)ip; int *m = 1 - 1;
}
int gi; double *gp = &gi; int *gq = 0;
"#,
        Options::default(),
        expect![[r#"
            11:20 120 
            13:19 413 Type { spelling: "A", aka: None } Type { spelling: "int", aka: None }
            17:32 120 
            18:26 120 
            21:8 413 Type { spelling: "A", aka: None } Type { spelling: "int", aka: None }
            21:31 167 Type { spelling: "double", aka: None } Type { spelling: "int *", aka: None }
            21:53 167 Type { spelling: "double *", aka: None } Type { spelling: "int *", aka: None }
            21:62 167 Type { spelling: "double", aka: None } Type { spelling: "int *", aka: None }
            21:67 167 Type { spelling: "double", aka: None } Type { spelling: "double *", aka: None }
            21:76 167 Type { spelling: "int *", aka: None } Type { spelling: "sz *", aka: Some("unsigned long *") }
            21:80 167 Type { spelling: "double *", aka: None } Type { spelling: "IP", aka: Some("int *") }
            22:16 144 Type { spelling: "int *", aka: None } Type { spelling: "double *", aka: None }
            22:30 144 Type { spelling: "int", aka: None } Type { spelling: "int *", aka: None }
            22:55 144 Type { spelling: "int *", aka: None } Type { spelling: "long", aka: None }
            22:81 144 Type { spelling: "int", aka: None } Type { spelling: "int *", aka: None }
            22:93 144 Type { spelling: "int", aka: None } Type { spelling: "int *", aka: None }
            22:106 144 Type { spelling: "bool", aka: None } Type { spelling: "int *", aka: None }
            23:10 144 Type { spelling: "double *", aka: None } Type { spelling: "IP", aka: Some("int *") }
            23:22 144 Type { spelling: "int *", aka: None } Type { spelling: "sz *", aka: Some("unsigned long *") }
            23:55 144 Type { spelling: "const int *", aka: None } Type { spelling: "void *", aka: None }
            25:22 144 Type { spelling: "int *", aka: None } Type { spelling: "double *", aka: None }
        "#]],
    );
}

#[test]
fn this_outside_member_functions() {
    check(
        r#"
int h1() { return this != 0; }
struct S { int a; int f(); static int g(); friend int fr(S) { return this != 0; } int h() { return this->a; } };
int S::f() { auto l = [this] { return a; }; return this->a + l(); }
int S::g() { return 0; }
int h2() { struct L { int m; int q() { return this->m; } }; L l; return l.q(); }
"#,
        Options::default(),
        expect![[r#"
            2:19 258 
            3:70 258 
        "#]],
    );
}

#[test]
fn undefined_names_outside_function_bodies() {
    check(
        r#"
Nope host_fn();
namespace n { Nope2 *v; }
const Nope3 &r(int);
Nope g2();
void f(Nope4 x);
struct S { Nope5 m; static int sm; };
int S::sm = z1;
void h() { int q = x1; }
int a = x1 + x1;
void g() { int q = x1; }
int b = sizeof(w1);
template <class T> struct W { T t; };
"#,
        Options::default(),
        expect![[r#"
            2:1 20 "Nope"
            3:15 20 "Nope2"
            4:7 20 "Nope3"
            5:1 20 "Nope"
            6:8 20 "Nope4"
            7:12 20 "Nope5"
            8:13 20 "z1"
            9:20 20 "x1"
            10:9 20 "x1"
            12:16 20 "w1"
        "#]],
    );
}

#[test]
fn inaccessible_members() {
    check(
        r#"
class C { int secret; void m(); public: int pub; void pm(); protected: int prot; void pm2(); void pm2(int); };
namespace ns { struct P { private: int x; }; }
class F { int s; friend void fr(F &); };
class B { int bs; };
class D : public B { };
struct T { int t; };
template <class X> struct Tm { private: int tt; };
int host_fn(C &c, C *pc, ns::P p, F f, D d, Tm<int> tm) {
  c.m(); c.pm(); c.pm2(); pc->secret; p.x; f.s; c.pub; c.prot; tm.tt;
  return c.secret;
}
void fr(F &f) { f.s = 1; }
struct M { void mf(C &c) { c.secret; } };
"#,
        Options::default(),
        expect![[r#"
            10:5 265 Some(Function) "C::m"
            10:31 265 Some(Member) "C::secret"
            10:41 265 Some(Member) "ns::P::x"
            10:58 265 Some(Member) "C::prot"
            11:12 265 Some(Member) "C::secret"
        "#]],
    );
}

#[test]
fn ambiguous_and_incomplete_member_accesses() {
    check(
        r#"
struct A { int v; static int sv; typedef int T; void f(); };
struct B : A {};
struct C : A {};
struct D : B, C {};
struct VB : virtual A {}; struct VC : virtual A {}; struct VD : VB, VC {};
struct E : B { int v; };
struct S;
struct S2;
int host_fn(D &d, VD &vd, E &e, S *s, S2 &r) { d.sv; vd.v; e.v; s->x; r.y; return d.v; }
struct S2 { int y; };
"#,
        Options::default(),
        expect![[r#"
            10:65 833 Type { spelling: "S", aka: None }
            10:71 70 Type { spelling: "S2", aka: None }
            10:85 266 Some(Field) "D::v"
        "#]],
    );
}

#[test]
fn narrowing_into_aggregate_elements() {
    check(
        r#"
struct P { int a; };
P p{2.5};
struct Q { int a; double d; char c; };
Q q = {1.5, 2.5, 3.0};
void f() { P lp{1.0f}; Q lq{1, 2.0, 'c'}; P pp = {7}; }
struct R { int a; R(double); };
R r{2.5};
"#,
        Options::default(),
        expect![[r#"
            3:5 2361 Type { spelling: "double", aka: None } Type { spelling: "int", aka: None }
            5:8 2361 Type { spelling: "double", aka: None } Type { spelling: "int", aka: None }
            5:18 2361 Type { spelling: "double", aka: None } Type { spelling: "char", aka: None }
            6:17 2361 Type { spelling: "float", aka: None } Type { spelling: "int", aka: None }
        "#]],
    );
}

#[test]
fn inaccessible_constructors() {
    check(
        r#"
class C { C(); C(int, const char *); public: C(double); };
C c;
void f() { C l; C m(1, "x"); C n(1.5); }
class E { E(); friend void g(); };
void g() { E e; }
C d(2, nullptr);
"#,
        Options::default(),
        expect![[r#"
            3:3 330 None "C::C()"
            4:14 330 None "C::C()"
            4:21 330 None "C::C(int, const char *)"
            7:5 330 None "C::C(int, const char *)"
        "#]],
    );
}
const EXTENDED: Options = Options { relaxed_constexpr: false, extended_lambda: true, whole_program: false };

#[test]
fn extended_lambda_captures_by_reference() {
    check(
        r#"
void f1() { int x = 0, y = 1; auto l = [&x, y] __device__ (int a) { return x + y + a; }; (void)l; }
void f2() { int x = 0, y = 1; auto l = [&] __device__ (int a) { return x + y + a; }; (void)l; }
void f3() { auto l = [&] __device__ (int a) { return a; }; (void)l; }
void f4() { int x = 0; auto l = [&] __host__ __device__ (int a) { return x + a; }; (void)l; }
void f5() { int x = 0; auto l = [&x] (int a) { return x + a; }; (void)l; }
void a6() { int v = 0; auto l = [&r = v] __device__ (int a) { return a + r; }; (void)l; }
void a8() { int v = 0; auto l = [=, &v] __device__ (int a) { return a + v; }; (void)l; }
struct M { int f; void m() { auto l = [&] __device__ (int a) { return a + f; }; (void)l; } void n() { auto l = [this] __device__ (int a) { return a + f; }; (void)l; } };
void b1() { int x = 0; static int s = 0; auto l = [&] __device__ (int a) { return a + s + sizeof(x); }; (void)l; }
void b2() { int x = 0; auto l = [&] __device__ (int a) { int x = 1; return a + x; }; (void)l; }
void b3() { int x = 0; auto l = [&] __device__ (int a) { return x + x + a; }; (void)l; }
void a1() { int x = 0; auto g = [=](int q) { auto l = [&] __device__ (int a) { return x + a; }; (void)l; return q; }; (void)g; }
template <class T> void a3(T t) { auto l = [&t] __device__ (int a) { return a; }; (void)l; }
template <class T> struct CT { void m() { int x = 0; auto l = [&] __device__ (int a) { return a + x; }; (void)l; } };
"#,
        EXTENDED,
        expect![[r#"
            2:42 20136 "__device__"
            3:68 20136 "__device__"
            3:85 20136 "__device__"
            3:89 20136 "__device__"
            4:50 20136 "__device__"
            5:83 20136 "__host__ __device__"
            5:100 20136 "__host__ __device__"
            7:35 20136 "__device__"
            8:38 20136 "__device__"
            9:67 20136 "__device__"
            10:79 20136 "__device__"
            11:61 20136 "__device__"
            12:61 20136 "__device__"
            12:78 20136 "__device__"
            13:83 20136 "__device__"
            13:100 20136 "__device__"
            14:46 20136 "__device__"
            15:91 20136 "__device__"
            15:112 20136 "__device__"
        "#]],
    );
}

#[test]
fn extended_lambda_enclosing_functions() {
    check(
        r#"
auto g1() { auto l = [] __device__ (int x) { return x; }; (void)l; return 0; }
decltype(auto) g2() { auto l = [] __host__ __device__ (int x) { return x; }; (void)l; return 0; }
auto g3() -> int { auto l = [] __device__ (int x) { return x; }; (void)l; return 0; }
struct S { S() { auto l = [] __device__ (int x) { return x; }; (void)l; } ~S() { auto l = [] __device__ (int x) { return x; }; (void)l; } };
class C { void m() { auto l = [] __device__ (int x) { return x; }; (void)l; } protected: void n(); public: void p() { auto l = [] __device__ (int x) { return x; }; (void)l; } };
void C::n() { auto l = [] __device__ (int x) { return x; }; (void)l; }
struct O { private: struct I { void m() { auto l = [] __device__ (int x) { return x; }; (void)l; } }; };
struct { void m() { auto l = [] __device__ (int x) { return x; }; (void)l; } } unnamed;
void outer() { struct L { void m() { auto l = [] __device__ (int x) { return x; }; (void)l; } }; }
class C1 { auto m() { auto l = [] __device__ (int x) { return x; }; (void)l; return 0; } };
void c5() { struct L { auto m() { auto l = [] __device__ (int x) { return x; }; (void)l; return 0; } }; }
class C6 { C6() { auto l = [] __device__ (int x) { return x; }; (void)l; } };
struct P { protected: struct I { struct J { void m() { auto l = [] __device__ (int x) { return x; }; (void)l; } }; }; };
struct Q { struct I { private: void m() { auto l = [] __device__ (int x) { return x; }; (void)l; } }; };
template <class T> auto a4(T t) { auto l = [] __device__ (int a) { return a; }; (void)l; return t; }
auto a5() { int x = 0; auto l = [&x] __device__ (int a) { return a; }; (void)l; return 0; }
"#,
        EXTENDED,
        expect![[r#"
            2:49 20156 "__device__" "g1"
            3:81 20156 "__host__ __device__" "g2"
            5:54 20143 "__device__" "S"
            5:131 20143 "__device__" "~S"
            6:58 20151 "__device__" "m"
            7:51 20151 "__device__" "n"
            8:79 20152 "__device__" "I"
            9:57 20144 "__device__" "m"
            10:74 20135 "__device__" "m"
            11:59 20156 "__device__" "m"
            11:59 20151 "__device__" "m"
            12:71 20135 "__device__" "m"
            12:71 20156 "__device__" "m"
            13:55 20143 "__device__" "C6"
            13:55 20151 "__device__" "C6"
            14:92 20152 "__device__" "I"
            15:79 20151 "__device__" "m"
            16:71 20156 "__device__" "a4"
            17:62 20156 "__device__" "a5"
            17:35 20136 "__device__"
        "#]],
    );
}

#[test]
fn extended_lambda_nesting_and_specifiers() {
    check(
        r#"
void h1() { auto l = [] __host__ __device__ (auto x) { return x; }; (void)l; }
void h2() { auto g = [](auto x) { auto l = [] __device__ (int y) { return y; }; (void)l; return x; }; (void)g; }
void h3() { auto g = [] __host__ __device__ (int x) { auto l = [] __device__ (int y) { return y; }; (void)l; return x; }; (void)g; }
void h4() { auto l = [] __device__ (int x) constexpr { return x; }; (void)l; }
void h5() { auto l = [] __host__ __device__ (int x) constexpr { return x; }; (void)l; }
void h6() { int a = 1; auto l = [b = a] __host__ __device__ (int x) { return x + b; }; (void)l; }
void h7() { int a = 1; auto l = [b = a] __device__ (int x) { return x + b; }; (void)l; }
void h8() { auto l = [] __device__ (auto x) { return x; }; (void)l; }
void h9() { auto g = [] __host__ __device__ (int x) { auto l = [] __host__ __device__ (int y) { return y; }; (void)l; return x; }; (void)g; }
void a2() { auto g = [] __device__ (int q) { auto l = [] __device__ (int a) { return a; }; (void)l; return q; }; (void)g; }
void a9() { auto l = [] __host__ __device__ (auto x) constexpr { return x; }; (void)l; }
void c2() { int x = 0; auto l = [&x, y = 1] __host__ __device__ (auto a) constexpr { return a + y; }; (void)l; }
void c3() { auto g = [](auto q) { auto l = [&] __device__ (int a) constexpr { return a + q; }; (void)l; return 0; }; (void)g; }
void c4() { auto g = [] __host__ __device__ (int q) { auto l = [&] __device__ (int a) { return a + q; }; (void)l; return 0; }; (void)g; }
void c8() { auto g = [](auto q) { auto l = [] __host__ __device__ (auto a) { return a; }; (void)l; return 0; }; (void)g; }
void d2() { int x = 0; auto g = [](auto q) { auto l = [&] __device__ (int a) { return a; }; (void)l; return q; }; (void)g; }
auto d3() { int x = 0; auto l = [&] __device__ (int a) { return a + x; }; (void)l; return 0; }
void d4() { int x = 0; auto l = [&] __host__ __device__ (int a) constexpr { return a + x; }; (void)l; }
void d5() { int x = 0; auto l = [&] __host__ __device__ (auto a) { return a + x; }; (void)l; }
"#,
        EXTENDED,
        expect![[r#"
            2:22 20157 
            3:71 20161 "__device__" "operator()"
            4:117 20162 "__device__" "operator()"
            5:67 20163 "constexpr" "__device__"
            6:89 20163 "constexpr" "__host__ __device__"
            7:34 20158 
            10:139 20162 "__host__ __device__" "operator()"
            12:90 20163 "constexpr" "__host__ __device__"
            12:22 20157 
            13:35 20136 "__host__ __device__"
            13:38 20158 
            13:110 20163 "constexpr" "__host__ __device__"
            13:33 20157 
            14:72 20161 "__device__" "operator()"
            14:90 20163 "constexpr" "__device__"
            14:103 20136 "__device__"
            15:118 20162 "__device__" "operator()"
            15:139 20136 "__device__"
            16:93 20161 "__host__ __device__" "operator()"
            16:44 20157 
            17:83 20161 "__device__" "operator()"
            18:61 20156 "__device__" "d3"
            18:61 20136 "__device__"
            18:82 20136 "__device__"
            19:83 20136 "__host__ __device__"
            19:101 20163 "constexpr" "__host__ __device__"
            19:114 20136 "__host__ __device__"
            20:83 20136 "__host__ __device__"
            20:105 20136 "__host__ __device__"
            20:33 20157 
        "#]],
    );
}

#[test]
fn extended_lambdas_where_nvcc_is_silent() {
    check(
        r#"
void h1() { int x = 0; auto l = [&] (int a) { return x + a; }; (void)l; }
auto h2() { int x = 0; auto l = [&x] (int a) { return x + a; }; (void)l; return 0; }
__device__ void d2() { int x = 0; auto l = [&x] __device__ (int a) { return x + a; }; (void)l; }
__global__ void k1() { int x = 0; auto l = [&] __device__ (int a) { return x + a; }; (void)l; }
auto ns = [] __device__ (int x) { return x; };
void h3() { auto l = [] __device__ (int x) mutable { return x; }; (void)l; }
void h4() noexcept { auto l = [] __device__ (int x) { return x; }; (void)l; }
void h5() { auto l = [] __host__ (int x) { return x; }; (void)l; }
"#,
        EXTENDED,
        expect![[r#""#]],
    );
}

#[test]
fn annotated_lambdas_need_the_flag() {
    check(
        r#"
void h1() { auto l = [] __device__ (int x) { return x; }; (void)l; }
void h2() { auto l = [] __host__ (int x) { return x; }; (void)l; }
void h3() { auto g = [] __host__ __device__ (int x) { auto l = [] __device__ (int y) { return y; }; (void)l; return x; }; (void)g; }
__device__ void d1() { auto l = [] __device__ (int x) { return x; }; (void)l; }
__global__ void k1() { int x = 0; auto l = [&] __device__ (int a) { return x + a; }; (void)l; }
void h4() { auto l = [&] (int x) { return x; }; (void)l; }
auto ns = [] __device__ (int x) { return x; };
"#,
        Options::default(),
        expect![[r#"
            2:49 20155 
            3:47 20155 
            4:71 20155 
            4:117 20155 
            5:73 20155 
            6:85 20155 
            8:38 20155 
        "#]],
    );
}

#[test]
fn lambdas_in_device_code_are_not_extended() {
    // cicc's front end: a `__device__` lambda in a `__device__` or
    // `__global__` function keeps its closure type (no wrapper to call); a
    // closure object only cast to void is set but never used (as nvcc).
    check_device(
        r#"
struct __attribute__((device_builtin)) __nv_lambda_preheader_injection { };
__device__ void d1() { auto l = [] __device__ (int x) { return x; }; (void)l; }
__device__ void d2() { int x = 0; auto l = [&x] __device__ (int a) { return x + a; }; (void)l; }
__global__ void k1() { int x = 0; auto l = [&] __device__ (int a) { return x + a; }; (void)l(1); }
"#,
        EXTENDED,
        expect![[r#"
            3:42 550 Some(Variable) "l"
            4:53 550 Some(Variable) "l"
        "#]],
    );
}

#[test]
fn annotated_lambdas_in_member_initializers_need_the_flag() {
    check(
        "struct N { int f = [] __device__ (int a) { return a; }(1); int g = 0; };\n",
        Options::default(),
        expect![[r#"
            1:47 20155 
        "#]],
    );
}

#[test]
fn extended_lambda_edge_cases() {
    check(
        r#"
template <class F> void use(F) {}
void e1() { int v = 0; use([&r = v] __host__ __device__ (int a) { return a + r; }); }
typedef struct { void m() { use([] __device__ (int x) { return x; }); } } TS;
struct Op { void operator()(int) { use([] __device__ (int x) { return x; }); } operator int() { use([] __device__ (int x) { return x; }); return 0; } };
void e2() try { int x = 0; use([&] __device__ (int a) { return a + x; }); } catch (...) {}
template <class T> void e3() { int x = 0; if constexpr (sizeof(T) == 4) { use([&] __device__ (int a) { return a + x; }); } }
void e4() { int x = 0; for (int i = 0; i < 2; ++i) use([&] __device__ (int a) { return a + i + x; }); }
void e5(int n) { int arr[4] = {}; use([&] __device__ (int a) { return a + arr[0] + n; }); }
void e6() { int x = 0; use([&] __device__ (int a) { auto in = [=] { return x; }; return a + in(); }); }
void e7() { const int k = 3; int x = 0; use([&] __device__ (int a) { return a + k + x; }); }
void e8() { constexpr int k = 3; const double d = 1.0; use([&] __device__ (int a) { return a + k + (int)d; }); }
void e9() { constexpr int k = 3; use([&] __device__ (int a) { return a + sizeof(k); }); }
void e10() { int x = 0; use([&] __device__ (int a) { return a + decltype(x)(1); }); }
"#,
        EXTENDED,
        expect![[r#"
            3:30 20158 
            3:30 20136 "__host__ __device__"
            4:60 20144 "__device__" "m"
            6:60 20136 "__device__"
            6:81 20136 "__device__"
            7:107 20136 "__device__"
            7:128 20136 "__device__"
            8:84 20136 "__device__"
            8:105 20136 "__device__"
            8:109 20136 "__device__"
            9:67 20136 "__device__"
            9:88 20136 "__device__"
            9:97 20136 "__device__"
            10:56 20136 "__device__"
            10:89 20136 "__device__"
            11:73 20136 "__device__"
            11:94 20136 "__device__"
            11:98 20136 "__device__"
            12:88 20136 "__device__"
            12:109 20136 "__device__"
            12:118 20136 "__device__"
            13:66 20136 "__device__"
            14:57 20136 "__device__"
        "#]],
    );
}

/// glibc's declarations qualify parameters with `__restrict`, CUDA's
/// (which `cuda_runtime.h` puts first) do not: one function, host and device (a device call of
/// `printf` was a false "calling a __host__ function"). A constructor
/// defaulted without annotation is callable from device code.
#[test]
fn redeclarations_with_qualified_parameters_and_defaulted_members() {
    check_device(
        r#"
extern "C" __host__ __device__ int printf(const char*, ...);
extern "C" __host__ __device__ void *memcpy(void *, const void *, unsigned long);
extern "C" {
extern int printf (const char *__restrict __format, ...);
extern void *memcpy (void *__restrict __dest, const void *__restrict __src, unsigned long __n);
}
struct H { H() = default; int x; };
__device__ void f(char *a, const char *b) { printf("x %d\n", 1); memcpy(a, b, 4); H h = H(); (void)h; }
"#,
        Options::default(),
        expect![[r#""#]],
    );
}
/// Checked against the real nvcc: a class, union or enum defined twice in
/// one scope (reopened namespaces, qualified definitions, nested classes);
/// the previous definition is the latest one before. Different scopes,
/// blocks, templates and declarations are silent.
#[test]
fn class_and_enum_redefinitions() {
    check(
        r#"
struct S {};
struct S {};
union U { int a; };
union U { int a; };
class C {};
struct C {};
enum E { A };
enum E { B };
enum class F : int;
enum class F : int { X };
enum class G { Y };
enum class G { Y };
namespace N { struct T {}; enum H { H1 }; }
namespace N { struct T {}; enum H { H2 }; }
struct T {};
struct O { struct I {}; struct I {}; };
struct P { struct I; };
struct P::I {};
struct P::I {};
void f() { { struct L {}; } { struct L {}; } }
template <class Q> struct Tm {};
template <class Q> struct Tm<Q*> {};
template <> struct Tm<int> {};
template <class Q> struct Tm2 { struct J {}; };
struct Fwd;
struct Fwd {};
struct Fwd;
typedef struct S2 {} S2t;
struct S2 {};
namespace { struct A1 {}; }
struct A1 {};
extern "C++" { struct S {}; }
"#,
        Options::default(),
        expect![[r#"
            3:8 3369 Some(Class) "S" Pos(At { file: "t.ii", line: 2 })
            5:7 3369 Some(Union) "U" Pos(At { file: "t.ii", line: 4 })
            7:8 3369 Some(Class) "C" Pos(At { file: "t.ii", line: 6 })
            9:6 3369 Some(Enum) "E" Pos(At { file: "t.ii", line: 8 })
            13:12 3369 Some(Enum) "G" Pos(At { file: "t.ii", line: 12 })
            15:22 3369 Some(Class) "N::T" Pos(At { file: "t.ii", line: 14 })
            15:33 3369 Some(Enum) "N::H" Pos(At { file: "t.ii", line: 14 })
            17:32 3369 Some(Class) "O::I" Pos(At { file: "t.ii", line: 17 })
            20:8 3369 Some(Class) "P::I" Pos(At { file: "t.ii", line: 19 })
            30:8 3369 Some(Class) "S2" Pos(At { file: "t.ii", line: 29 })
            33:23 3369 Some(Class) "S" Pos(At { file: "t.ii", line: 3 })
        "#]],
    );
}

/// Checked against the real nvcc: non-positive `__cluster_dims__` and
/// `__maxnreg__` arguments and a negative max-blocks-per-cluster, one
/// error per argument, at the attribute; such an attribute is dropped (no
/// placement error after it). Dependent arguments are not judged.
#[test]
fn launch_configuration_arguments() {
    check(
        r#"
__global__ void __attribute__((cluster_dims(0, 1, 1))) k1() {}
__global__ void __attribute__((cluster_dims(1, -1, 1))) k2() {}
__global__ void __attribute__((cluster_dims(2))) k3() {}
constexpr int Z = 0;
__global__ void __attribute__((cluster_dims(Z))) k5() {}
template <int N> __global__ void __attribute__((cluster_dims(N))) k6() {}
__global__ void __attribute__((launch_bounds(128, 1, -1))) k7() {}
__global__ void __attribute__((launch_bounds(128, 1, 0))) k8() {}
__global__ void __attribute__((launch_bounds(-5))) k10() {}
__global__ void __attribute__((maxnreg(0))) k11() {}
__global__ void __attribute__((maxnreg(Z))) k13() {}
template <int N> __global__ void __attribute__((maxnreg(N))) k14() {}
__global__ void __attribute__((maxnreg(1000))) k15() {}
__global__ void __attribute__((cluster_dims(0, 0, 0))) k16() {}
__device__ void __attribute__((cluster_dims(0))) d1() {}
__global__ void __attribute__((maxnreg(0))) __attribute__((launch_bounds(128))) k17() {}
__device__ void __attribute__((maxnreg(0))) d2() {}
__global__ void __attribute__((cluster_dims(1+1, 2-3))) k18() {}
__device__ void __attribute__((maxnreg(8))) d3() {}
__global__ void __attribute__((launch_bounds(128, 2, 1, 7))) k19() {}
__device__ void __attribute__((launch_bounds(128, 2, 1, 7))) d4() {}
"#,
        Options::default(),
        expect![[r#"
            2:45 20228 "__cluster_dims__"
            3:45 20228 "__cluster_dims__"
            6:45 20228 "__cluster_dims__"
            8:45 20248 
            11:45 20260 
            12:45 20260 
            15:45 20228 "__cluster_dims__"
            15:45 20228 "__cluster_dims__"
            15:45 20228 "__cluster_dims__"
            16:45 20228 "__cluster_dims__"
            17:45 20260 
            18:45 20260 
            19:45 20228 "__cluster_dims__"
            20:58 20258 "__maxnreg__"
            21:68 18 
            22:68 18 
            22:75 20077 "__launch_bounds__"
        "#]],
    );
}

/// Checked against the real nvcc: `__grid_constant__` on a parameter of a
/// function that is not a kernel, once per parameter, at the function's
/// name (templates and members included).
#[test]
fn grid_constant_outside_kernels() {
    check(
        r#"
__device__ int d1(const __attribute__((grid_constant)) int x) { return x; }
__host__ __device__ int d2(const __attribute__((grid_constant)) int x) { return x; }
int d3(const __attribute__((grid_constant)) int x) { return x; }
__global__ void k1(const __attribute__((grid_constant)) int x) {}
__device__ int d4(const __attribute__((grid_constant)) int x);
template <class T> __device__ int d5(const __attribute__((grid_constant)) T x) { return 0; }
struct S { __device__ void m(const __attribute__((grid_constant)) int x) {} };
__device__ int d6(const __attribute__((grid_constant)) int x, const __attribute__((grid_constant)) int y) { return x; }
template <class T> __global__ void k2(const __attribute__((grid_constant)) T x) {}
"#,
        Options::default(),
        expect![[r#"
            2:29 20245 
            3:51 20245 
            4:5 20245 
            6:29 20245 
            7:48 20245 
            8:41 20245 
            9:29 20245 
            9:29 20245 
        "#]],
    );
}

/// Checked against the real nvcc: `__global__` with `__host__` or
/// `__device__`, in one declaration or across redeclarations, at each
/// conflicting attribute; an unannotated declaration applies nothing.
#[test]
fn conflicting_execution_space_annotations() {
    check(
        r#"
__global__ void kern();
__device__ void kern();
__device__ void dv();
__global__ void dv();
void h();
__global__ void h();
__global__ void k();
void k();
__global__ __host__ __device__ void t1();
__host__ __device__ __global__ void t2();
__global__ void t3();
__global__ void t3();
__global__ void t4();
__host__ __device__ void t4() {}
namespace N { __global__ void a6(); }
__device__ void a6();
__global__ void a7(int);
__device__ void a7(float);
__device__ void d7();
__host__ void d7();
"#,
        Options::default(),
        expect![[r#"
            3:16 20024 
            5:16 20024 
            10:40 20024 
            10:62 20024 
            11:62 20024 
            15:16 20024 
            15:38 20024 
        "#]],
    );
}

/// Checked against the real nvcc (`-rdc=false`; `-rdc=true` accepts them):
/// inline device variables need internal linkage.
#[test]
fn inline_device_variables_in_whole_program_mode() {
    let text = r#"
inline __device__ int v1 = 1;
static inline __device__ int v2 = 1;
namespace { inline __device__ int v3 = 1; }
inline __constant__ int v4 = 1;
inline __managed__ int v5 = 1;
inline constexpr __device__ int v7 = 1;
namespace M { inline __device__ int v10 = 1; }
inline int v11 = 1;
"#;
    check(
        text,
        Options { whole_program: true, ..Options::default() },
        expect![[r#"
        2:36 20191 
        5:38 20191 
        6:37 20191 
        7:46 20191 
        8:50 20191 
    "#]],
    );
    check(text, Options::default(), expect![[r#""#]]);
}

/// Checked against the real nvcc: `override` that overrides nothing, and
/// an override of a `final` function (the first on the chain); templated
/// classes are silent.
#[test]
fn override_and_final() {
    check(
        r#"
struct B { void f(); virtual void g(); virtual void h() final; virtual void k(int); };
struct D : B { void f() override; void g() override; void h(); void k(long) override; void z() override; };
struct E : D { void h(); };
template <class T> struct TB : T { void f() override; };
template <class T> struct TD { void q() override; };
struct V { virtual ~V(); };
struct W : V { ~W() override; };
struct X { virtual void a() final; };
struct Y : X { virtual void a(); };
struct Z : X { void a() const; };
struct Q : X { int a(int); };
struct R : B { void g() const override; void g() final; };
"#,
        Options::default(),
        expect![[r#"
            3:21 1455 
            3:59 1850 Some(Function) "B::h"
            3:69 1455 
            3:92 1455 
            4:21 1850 Some(Function) "B::h"
            10:29 1850 Some(Function) "X::a"
            13:21 1455 
        "#]],
    );
}

/// Checked against the real nvcc: objects of incomplete type (`void`, a
/// class not defined before), arrays of references, objects of abstract
/// class type with their notes, `auto` without an initializer, a `static
/// constexpr` member without one. Templates, pointers and `extern`
/// declarations are silent.
#[test]
fn types_of_declared_objects() {
    check(
        r#"
struct S;
S s1;
extern S s2;
void v1;
extern void v2;
int a, b;
int &arr[2] = {a, b};
typedef int &IR;
IR arr2[2];
struct A { virtual void f() = 0; };
A a1;
struct D : A {};
D d1;
struct E : A { void f() override; };
E e1;
void host_fn() { auto x; S s3; void v3; A a2; static S s4; A *pa; S *ps; }
struct Later;
Later *lp;
struct Later {};
Later l1;
template <class T> struct X { T t; };
X<int> x1;
template <class T> void tf() { S s; auto y; }
struct M { static S ms; S *p; };
struct N { S n; };
namespace NS { struct S; struct A2 { virtual void f() = 0; virtual void g() = 0; }; }
NS::S s5;
NS::A2 a3;
struct B2 : NS::A2 { void f() override; };
B2 b2;
struct C2 : B2 { void g() override; };
C2 c2;
struct D2 { virtual ~D2() = 0; };
D2 d2;
struct Q { static constexpr int n; static const int m; static constexpr double d; static constexpr int k = 1; };
auto gx;
const auto gy;
auto *gp;
auto gz = 1;
typedef S ST;
ST st;
"#,
        Options::default(),
        expect![[r#"
            3:3 70 Type { spelling: "S", aka: None }
            5:6 70 Type { spelling: "void", aka: None }
            6:13 70 Type { spelling: "void", aka: None }
            8:6 251 
            10:4 251 
            12:3 322 Type { spelling: "A", aka: None }
            12:3 858 Some(Function) "A::f"
            14:3 322 Type { spelling: "D", aka: None }
            14:3 859 Some(Function) "A::f"
            17:23 1593 
            17:28 70 Type { spelling: "S", aka: None }
            17:37 70 Type { spelling: "void", aka: None }
            17:43 322 Type { spelling: "A", aka: None }
            17:43 858 Some(Function) "A::f"
            17:56 70 Type { spelling: "S", aka: None }
            26:14 70 Type { spelling: "S", aka: None }
            28:7 70 Type { spelling: "NS::S", aka: None }
            29:8 322 Type { spelling: "NS::A2", aka: None }
            29:8 858 Some(Function) "NS::A2::f"
            29:8 858 Some(Function) "NS::A2::g"
            31:4 322 Type { spelling: "B2", aka: None }
            31:4 859 Some(Function) "NS::A2::g"
            35:4 322 Type { spelling: "D2", aka: None }
            35:4 858 Some(Function) "D2::~D2"
            36:33 257 Some(Member) "Q::n"
            36:80 257 Some(Member) "Q::d"
            37:6 1593 
            38:12 1593 
            39:7 1593 
        "#]],
    );
}

/// Checked against the real nvcc: a user-defined literal whose literal
/// operator is declared nowhere (the warning only for a suffix without
/// `_`); a declared `operator""abc` makes `12abc` silent, and templated
/// bodies are silent.
#[test]
fn user_defined_literals_without_operator() {
    check(
        r#"
unsigned long long operator""abc(unsigned long long v) { return v; }
int i = 12abc;
int j = 12xyz;
const char *s = "x"qq;
namespace L { unsigned long long operator""_k(unsigned long long v) { return v; } }
int k = 3_k;
int k2 = 3_nope;
long m = 1lul;
void f() { int q = 5lul; float z = 1.5e; float w = 0x1.0p; }
template <class T> void g() { int q = 6abc; }
int ok = 12 + 0x1F + 1ul + 2.5f;
unsigned long long operator"" sp(unsigned long long v);
template <char...> unsigned long long operator""tpl() { return 1; }
unsigned long long operator""_fine(unsigned long long v);
"#,
        Options::default(),
        expect![[r#"
            2:28 2506 
            4:9 2506 
            4:9 2486 
            5:17 2506 
            5:17 2486 
            8:10 2486 
            9:10 2506 
            9:10 2486 
            10:20 2506 
            10:20 2486 
            10:36 2506 
            10:36 2486 
            10:52 2506 
            10:52 2486 
            13:31 2506 
            14:47 2506 
        "#]],
    );
}

/// Checked against the real nvcc: `virtual`, `explicit` and `mutable`
/// outside class bodies, at the keyword.
#[test]
fn member_specifiers_outside_classes() {
    check(
        r#"
virtual void f1();
explicit int f2();
struct S { void m(); S(int); virtual void ok(); explicit S(long); mutable int mm; };
virtual void S::m() {}
explicit S::S(int) {}
mutable int x;
virtual int v;
static virtual void f3();
namespace N { extern "C" { virtual void f4(); } }
template <class T> virtual void f5(T);
"#,
        Options::default(),
        expect![[r#"
            2:1 239 
            3:1 771 
            5:1 239 
            6:1 771 
            7:1 719 
            8:1 239 
            9:8 239 
            10:28 239 
            11:20 239 
        "#]],
    );
}

/// Checked against the real nvcc: a `constexpr` `__managed__` or
/// `__shared__` variable, at the attribute, then the const and
/// initializer rules at the name (namespace scope and device bodies).
#[test]
fn constexpr_memory_space_variables() {
    check(
        r#"
constexpr __managed__ int m = 1;
constexpr __shared__ int s0 = 1;
constexpr __device__ int d0 = 1;
constexpr __constant__ int c0 = 1;
__device__ void dev_fn() { constexpr __shared__ int s = 1; (void)s; static constexpr __managed__ int m2 = 2; }
"#,
        Options::default(),
        expect![[r#"
            2:26 20120 "__managed__"
            2:40 20109 
            3:26 20120 "__shared__"
            3:39 20053 "__shared__" ""
            6:66 20120 "__shared__"
            6:79 20053 "__shared__" ""
            6:127 20120 "__managed__"
            6:141 20109 
        "#]],
    );
}

/// Checked against the real nvcc (cicc's front end): `thread_local` device
/// variables, rvalue-reference and non-const `__grid_constant__` kernel
/// parameters, functions redeclared with other execution spaces.
#[test]
fn device_pass_declaration_rules() {
    check_device(
        r#"
thread_local __device__ int t;
thread_local __constant__ int t2 = 1;
static thread_local __device__ int t3;
__global__ void kern(int &&r) {}
__global__ void kern2(int &r, const int &&q, float &&s) {}
template <class T> __global__ void kern3(T &&r) {}
__global__ void kern4(__attribute__((grid_constant)) int x, __attribute__((grid_constant)) float y) {}
__global__ void kern5(const __attribute__((grid_constant)) int x, __attribute__((grid_constant)) const int y) {}
__device__ int f6();
__host__ __device__ int f6() { return 1; }
__device__ int f4();
__host__ int f4() { return 1; }
int f5();
__device__ int f5() { return 1; }
__host__ int f7();
__host__ __device__ int f7() { return 1; }
__device__ int f8();
int f8() { return 1; }
struct S { __device__ int m(); };
__host__ __device__ int S::m() { return 1; }
namespace N { __device__ int g(); }
__host__ int N::g() { return 1; }
__device__ int f9();
__host__ int f9();
__host__ __device__ int f9() { return 1; }
__device__ int f10(int);
__host__ int f10(float) { return 1; }
template <class T> __device__ int tf(T);
template <class T> __host__ int tf(T) { return 1; }
"#,
        Options::default(),
        expect![[r#"
            2:1 20113 "__device__"
            3:1 20113 "__constant__"
            4:1 20113 "__device__"
            5:30 20063 
            6:30 20063 
            8:30 20239 
            8:30 20239 
            11:51 20036 Some(Function) "f6"
            13:27 20035 Some(Function) "f4"
            15:29 20039 Some(Function) "f5"
            17:51 20040 Some(Function) "f7"
            19:5 20037 Some(Function) "f8"
            21:54 20036 Some(Function) "S::m"
            23:30 20035 Some(Function) "N::g"
            25:27 20035 Some(Function) "f9"
            30:46 20035 Some(Function) "tf"
        "#]],
    );
}

/// Checked against the real nvcc: a member access through a pointer to a
/// class, or on an object of a class, not defined before it.
#[test]
fn member_access_on_incomplete_classes() {
    check(
        r#"
struct S;
int host_fn(S *s) { return s->x; }
int g2(S &r) { return r.y; }
void g3(S *s) { s->f(); }
struct T;
struct U { int u; };
int g4(T *t, U *u) { return u->u; }
template <class X> int g6(S *s) { return s->x; }
struct S { int x; };
int g5(S *s) { return s->x; }
"#,
        Options::default(),
        expect![[r#"
            3:28 833 Type { spelling: "S", aka: None }
            4:23 70 Type { spelling: "S", aka: None }
            5:17 833 Type { spelling: "S", aka: None }
        "#]],
    );
}

#[test]
fn jumps_over_initializations() {
    check(
        r#"
void host_fn() { goto end; int x = 1; end: (void)0; }
void g(int c) { if (c) goto out; int a = 1, b; static int s = 2; out: ; }
void h() { int y = 0; goto fine; fine: y++; }
void k() { goto later; int z; later: z = 1; }
"#,
        Options::default(),
        expect![[r#"
            2:18 546 
            2:32 547 Some(Variable) "x"
            3:24 546 
            3:38 547 Some(Variable) "a"
        "#]],
    );
}

#[test]
fn asserts_in_class_template_instances() {
    check(
        r#"
namespace n { template <class A, int N> struct P { static_assert(N > sizeof(A), "big"); A a[N]; }; }
typedef n::P<int, 2> P2;
P2 p2;
struct U { n::P<char, 1> c; int x; };
template <bool B> struct Q { static_assert(B); };
Q<false> q;
Q<true> q2;
void f(n::P<short, 1> arg) {}
extern n::P<long, 1> ext;
n::P<int, 2> *ptr;
template <class T> struct Check { static_assert(sizeof(T) > 4, "too small"); };
template <class T> struct Holder { Check<T> c; };
Check<char> c;
void g() { Check<short> s; Check<char> again; }
Holder<bool> h;
"#,
        Options::default(),
        expect![[r#"
            2:52 1574 "big" <- n::P<A, N> [with A=int, N=2] at 4
            2:52 1574 "big" <- n::P<A, N> [with A=char, N=1] at 5
            6:30 2784  <- Q<B> [with B=false] at 7
            12:35 1574 "too small" <- Check<T> [with T=char] at 14
            12:35 1574 "too small" <- Check<T> [with T=short] at 15
            12:35 1574 "too small" <- Check<T> [with T=bool] at 13 <- Holder<T> [with T=bool] at 16
        "#]],
    );
}

#[test]
fn conversions_by_constructors_and_through_lookup() {
    check(
        r#"
struct A {};
struct S { explicit S(int); };
struct P { P(int, int = 0); };
struct Q { Q(const Q &); Q(); };
template <class T> struct W { W(T); };
struct V { template <class T> V(T); };
struct E : A {};
struct B { operator int() const; };
namespace n { struct C {}; void take(C, int); }
namespace m { struct D {}; }
A a = 1;
S s = 2;
P p = 3;
Q q = 4;
W<int> w = 6;
V v = 7;
E e = 8;
A ret() { return 1; }
void f(A);
void take(int);
void h() {
    f(1); A x = 2.0; const char *c = "x"; A y = c;
    A a; B b; n::C nc; m::D d; E ee;
    take(a); take(b); take(nc); take(d); take(ee);
}
"#,
        Options::default(),
        expect![[r#"
            12:7 415 Type { spelling: "int", aka: None } Type { spelling: "A", aka: None }
            13:7 415 Type { spelling: "int", aka: None } Type { spelling: "S", aka: None }
            15:7 415 Type { spelling: "int", aka: None } Type { spelling: "Q", aka: None }
            19:18 415 Type { spelling: "int", aka: None } Type { spelling: "A", aka: None }
            23:7 415 Type { spelling: "int", aka: None } Type { spelling: "A", aka: None }
            23:17 415 Type { spelling: "double", aka: None } Type { spelling: "A", aka: None }
            23:49 415 Type { spelling: "const char *", aka: None } Type { spelling: "A", aka: None }
            25:10 413 Type { spelling: "A", aka: None } Type { spelling: "int", aka: None }
            25:38 413 Type { spelling: "m::D", aka: None } Type { spelling: "int", aka: None }
        "#]],
    );
}

#[test]
fn deleted_functions() {
    check(
        r#"
struct S { S(int) = delete; S(); void g() = delete; S(int, int) = delete; };
struct T { T(double); T(int) = delete; };
struct U { U() = delete; U(int); };
void f(int) = delete;
void g(int);
void g(double) = delete;
template <class X> void r(X &);
template <class X> void r(const X &&) = delete;
void h(long);
void h(char) = delete;
void host_fn() {
    f(1); S s(1); s.g(); S c(1, 2);
    T t = 3; T z = T(1); T fine = 1.0;
    U u; U arr[2]; U ok(1);
    g(2.0f); g(2);
    int i = 0; r(i);
    h(1);
}
"#,
        Options::default(),
        expect![[r#"
            13:5 1776 Some(Function) "f"
            13:15 1776 Some(Function) "S::S"
            13:21 1776 Some(Function) "S::g"
            13:30 1776 Some(Function) "S::S"
            14:11 1776 Some(Function) "T::T"
            14:20 1776 Some(Function) "T::T"
            15:7 1790 Type { spelling: "U", aka: None }
            15:12 1790 Type { spelling: "U", aka: None }
            16:5 1776 Some(Function) "g"
            18:5 308 Some(OverloadedFunction) "h"
        "#]],
    );
}

#[test]
fn template_argument_lists() {
    check(
        r#"
template <class T> struct Box { T v; };
Box<int, int> b;
Box<3> c;
Box<int> ok;
template <class T, int N = 2> struct Arr { T v[N]; };
Arr<int, 3, 4> d;
Arr<int> fine;
template <class... Ts> struct Pack {};
Pack<int, int, int> p;
void f(Box<int, char> x);
"#,
        Options::default(),
        expect![[r#"
            3:10 443 Some(ClassTemplate) "Box"
            4:5 79 
            7:13 443 Some(ClassTemplate) "Arr"
            11:17 443 Some(ClassTemplate) "Box"
        "#]],
    );
}

#[test]
fn constructs_device_code_cannot_contain() {
    check_device(
        r#"
__device__ void d1() { throw 1; }
__host__ __device__ void hd() { try { } catch (...) { } }
__device__ void d2() try { } catch (...) { }
__device__ bool d3(int x) { return typeid(x) == typeid(int); }
__device__ int d4() { static thread_local int t; thread_local int u = 0; return t + u; }
__global__ void k() { __constant__ int c; __device__ int d; static __constant__ int s; __shared__ int sh; (void)c; (void)d; (void)s; (void)sh; }
__global__ void child() {}
__host__ __device__ void hd2() { child<<<1, 1>>>(); }
__device__ void d5() { auto l = [] { throw 2; }; l(); }
void h() { throw 1; auto l = [] __device__ () { throw 3; }; auto m = [] { throw 4; }; }
template <class T> __device__ void t() { throw 5; }
__device__ void d6() { struct L { void m() { throw 6; } }; }
"#,
        Options { whole_program: true, extended_lambda: true, ..Options::default() },
        expect![[r#"
            2:37 20060 
            3:59 20060 
            4:35 20060 
            5:49 20188 "typeid"
            5:62 20188 "typeid"
            6:36 20114 
            6:63 20114 
            7:66 20027 "an automatic" "__constant__"
            7:97 20027 "an automatic" "__device__"
            9:60 20023 
            10:51 20060 
            11:62 20060 
            11:26 177 Some(Variable) "l"
            11:79 177 Some(Variable) "m"
        "#]],
    );
}

#[test]
fn dynamic_initialization_of_device_variables() {
    check_device(
        r#"
int compute() { return 3; }
__device__ int dcompute() { return 3; }
constexpr int ce() { return 3; }
__device__ int a = compute();
__device__ int b = dcompute();
__constant__ int c = compute();
__device__ int d = ce();
struct S { S() {} };
__device__ S s;
__device__ int e = 1 + compute();
__device__ int f = sizeof(compute());
static __device__ int g = compute();
__device__ int h[2] = { compute(), 1 };
__managed__ int m = compute();
namespace N { __device__ int i = compute(); }
int plain = compute();
template <class T> struct X { static __device__ int t; };
"#,
        Options::default(),
        expect![[r#"
            5:29 20061 "__device__"
            6:29 20061 "__device__"
            7:31 20061 "__constant__"
            11:29 20061 "__device__"
            13:36 20061 "__device__"
            14:29 20061 "__device__"
            15:30 20061 "__managed__"
            16:43 20061 "__device__"
        "#]],
    );
}

#[test]
fn undefined_names_in_the_device_preprocessing() {
    check_device(
        "__device__ int f() { return nope + nope; }\n__device__ int g() { return nope; }\n",
        Options::default(),
        expect![[r#"
            1:42 20 "nope"
            2:42 20 "nope"
        "#]],
    );
}

#[test]
fn extern_shared_locals_of_complete_type() {
    check_device(
        r#"
int hf() { return 1; }
__global__ void kern() { extern __shared__ int buf[4]; buf[0] = hf(); }
__device__ void dev() { extern __shared__ int b2; b2 = 1; }
__device__ void dev2() { extern __shared__ int b3[]; b3[0] = 1; extern __shared__ float b4[8]; b4[0] = 1; }
__device__ void dev3() { extern __shared__ int b5[8]; }
void host() { extern int e; e = 1; }
"#,
        Options::default(),
        expect![[r#"
            3:74 late 20044 "buf"
            4:73 late 20044 "b2"
            5:128 late 20044 "b4"
            3:91 late 20018 "hf()" "kern"
            3:91 late 20068 "hf"
        "#]],
    );
}

#[test]
fn deprecated_functions_called_from_device_code() {
    check_device(
        r#"
[[deprecated]] __device__ void old_dev();
[[deprecated("why")]] __device__ void old2();
__attribute__((deprecated)) __device__ void old3();
__device__ void dev_fn() { old_dev(); old_dev(); old2(); old3(); }
[[deprecated]] void oldh();
void h() { oldh(); }
struct S { [[deprecated]] __device__ void m(); };
__device__ void d3(S s) { s.m(); }
__device__ void later();
__device__ void d4() { later(); }
[[deprecated]] __device__ void later();
"#,
        Options::default(),
        expect![[r#"
            5:41 1215 Some(Function) "old_dev"
            2:3 3287 
            5:52 1215 Some(Function) "old_dev"
            2:3 3287 
            5:63 1444 Some(Function) "old2" "why"
            3:3 3287 
            5:71 1215 Some(Function) "old3"
            4:16 3287 
            9:42 1215 Some(Function) "S::m"
            8:14 3287 
        "#]],
    );
}

#[test]
fn variables_set_but_never_used() {
    check_device(
        r#"
void f1() { int x; x = 1; }
void f2() { int x = 0; x = 1; }
void f3() { int x = 0; x += 1; }
void f4() { int x = 0; x++; }
void f6() { int x = 1; }
void f7() { int x; x = 1; x = 2; }
void f10() { int x, y; x = y = 1; }
void f12() { int a[2]; a[0] = 1; }
void f13() { int *p; p = 0; *p = 1; }
void f16() { static int s; s = 1; }
void f18() { int x; x = 1; auto l = [x] { return 0; }; l(); }
void r1() { for (int v : {1, 2}) v = 0; }
void r2() { int x; while (true) { x = 1; break; } }
void r12() { int x; x = 1; goto L; L: ; }
void a1() { [[maybe_unused]] float f = 1.0f; }
void a2() { __attribute__((unused)) int g; }
void a3() { [[maybe_unused]] int h; h = 1; }
template <int N> struct Z { __device__ Z(bool b) { int n = b ? N : 0; asm volatile("" :: "r"(n)); } };
template <int K> struct A { __device__ void f() const { int ldm = 1; } };
void g(int p) { int a; int b; b = 1; int c; p = 2; { int d; d = 3; } int e; e = 4; }
void g2() { int x; x = 1; int y = x; }
void g4() { int x; for (int i = 0; i < 2; i++) x = i; }
void g5() { int x; x = 1; x = x + 1; }
void g9() { int x; sizeof(x = 1); }
void g11() { int x; int z = (x = 1); (void)z; }
"#,
        Options::default(),
        expect![[r#"
            2:17 550 Some(Variable) "x"
            3:17 550 Some(Variable) "x"
            6:17 177 Some(Variable) "x"
            7:17 550 Some(Variable) "x"
            8:18 550 Some(Variable) "x"
            8:21 550 Some(Variable) "y"
            9:18 550 Some(Variable) "a"
            14:17 550 Some(Variable) "x"
            15:18 550 Some(Variable) "x"
            21:58 550 Some(Variable) "d"
            21:12 550 Some(Parameter) "p"
            21:21 177 Some(Variable) "a"
            21:28 550 Some(Variable) "b"
            21:42 177 Some(Variable) "c"
            21:74 550 Some(Variable) "e"
            22:31 177 Some(Variable) "y"
            23:17 550 Some(Variable) "x"
        "#]],
    );
}

#[test]
fn variable_length_arrays_in_device_code() {
    check_device(
        r#"
__device__ void d(int n) { int a[n]; (void)a; }
__global__ void k(int m, const int c) { int b[m]; int e[c]; (void)b; (void)e; }
void h(int n) { int a[n]; (void)a; }
__device__ void s(int n) { int n2 = n; { int n = 2; int a[n]; (void)a; } (void)n2; }
"#,
        Options::default(),
        expect![[r#"
            2:47 28 
            2:47 2689 Some(Parameter) "n"
            3:60 28 
            3:60 2689 Some(Parameter) "m"
        "#]],
    );
}

#[test]
fn unreferenced_closure_objects() {
    check_device(
        r#"
void h1() { auto l = [] { return 1; }; }
void h2() { auto l = [] { return 1; }; l(); }
void h3() { int x = 0; auto l = [&x] { x = 1; }; }
void h4() { const auto l = [] {}; }
void h5() { auto &&l = [] {}; }
__device__ void d1() { auto l = [] {}; }
template <class T> void t1() { auto l = [] {}; }
struct S { void m() { auto l = [] {}; } };
void h6() { auto l = [] {}; auto m = [l] {}; m(); }
"#,
        Options::default(),
        expect![[r#"
            2:18 177 Some(Variable) "l"
            4:29 177 Some(Variable) "l"
            5:24 177 Some(Variable) "l"
            7:42 177 Some(Variable) "l"
            9:28 177 Some(Variable) "l"
        "#]],
    );
}

#[test]
fn designated_initializers_out_of_order_duplicated_or_mixed() {
    // Per list, EDG's walk: a designator before the member after the last
    // one initialized is out of order (2904), a member designated twice or
    // a second one in a union is a duplicate (2906, first); before C++20
    // (as here) mixing designated and plain elements is allowed. Bodies
    // of templates are silent, instantiated or not; lists with too many
    // values or an unknown member are not judged.
    check(
        r#"
struct P { int a; int b; int c; };
P p{.c = 1, .b = 2, .a = 3};
P q = {.a = 1, .c = 2};
P r{.a = 1, .b = 2, .a = 3};
P s{1, 2, .b = 3};
union U { int i; float f; };
U u{.f = 1, .i = 2};
struct Q { P p; int z; };
Q t{.z = 1, .p = {.b = 1, .a = 2}};
P g() { return {.c = 1, .a = 2}; }
void k(P);
void m() { k({.b = 1, .a = 2}); P l{.c = 1, 2}; P n{.x = 1, .a = 2}; }
template <class T> T h() { return T{.b = 1, .a = 2}; }
P w = h<P>();
"#,
        Options::default(),
        expect![[r#"
            3:14 2904 
            3:22 2904 
            5:22 2906 
            6:12 2904 
            8:14 2906 
            10:14 2904 
            10:28 2904 
            11:26 2904 
            13:24 2904 
        "#]],
    );
}

#[test]
fn constructions_no_constructor_matches() {
    // 289 with `argument types are`, then the implicit copy and move
    // constructors (at the class), then the declared ones, last first.
    // Left alone: a constructor that may take the argument (a class
    // parameter), a class with a move constructor, class templates,
    // aggregates. A destructor suppresses the implicit move constructor.
    check(
        r#"
struct S { S(int, int); };
S s1(1);
S s2{1, 2, 3};
void f() { S a(2.5); S b = S(3); S *p = new S(4); }
struct T { T(int *); T(const char *, int = 0); };
T t1(1.5);
struct U { U(int *); U(const U &); };
U u1(1.0);
struct V { V(int *); V &operator=(const V &); };
V v1(2.0);
struct C { C(S); };
C c1(1);
struct D { D(int *); ~D(); };
D d1(1.0);
struct M { M(int *); M(M &&); };
M m1(1.0);
template <class X> struct E { E(int *); };
E<int> e1(1.0);
struct A { int x; };
"#,
        Options::default(),
        expect![[r#"
            3:6 289 Some(Function) "S::S"
            2:8 3326 Some(Function) "S::S(const S &)" Int(1)
            2:8 3326 Some(Function) "S::S(S &&)" Int(1)
            2:12 3322 Some(Function) "S::S(int, int)"
            4:5 289 Some(Function) "S::S"
            2:8 3322 Some(Function) "S::S(const S &)"
            2:8 3322 Some(Function) "S::S(S &&)"
            2:12 3322 Some(Function) "S::S(int, int)"
            5:16 289 Some(Function) "S::S"
            2:8 3326 Some(Function) "S::S(const S &)" Int(1)
            2:8 3326 Some(Function) "S::S(S &&)" Int(1)
            2:12 3322 Some(Function) "S::S(int, int)"
            5:28 289 Some(Function) "S::S"
            2:8 3326 Some(Function) "S::S(const S &)" Int(1)
            2:8 3326 Some(Function) "S::S(S &&)" Int(1)
            2:12 3322 Some(Function) "S::S(int, int)"
            5:46 289 Some(Function) "S::S"
            2:8 3326 Some(Function) "S::S(const S &)" Int(1)
            2:8 3326 Some(Function) "S::S(S &&)" Int(1)
            2:12 3322 Some(Function) "S::S(int, int)"
            7:6 289 Some(Function) "T::T"
            6:8 3326 Some(Function) "T::T(const T &)" Int(1)
            6:8 3326 Some(Function) "T::T(T &&)" Int(1)
            6:22 3326 Some(Function) "T::T(const char *, int)" Int(1)
            6:12 3326 Some(Function) "T::T(int *)" Int(1)
            9:6 289 Some(Function) "U::U"
            8:22 3326 Some(Function) "U::U(const U &)" Int(1)
            8:12 3326 Some(Function) "U::U(int *)" Int(1)
            11:6 289 Some(Function) "V::V"
            10:8 3326 Some(Function) "V::V(const V &)" Int(1)
            10:12 3326 Some(Function) "V::V(int *)" Int(1)
            15:6 289 Some(Function) "D::D"
            14:8 3326 Some(Function) "D::D(const D &)" Int(1)
            14:12 3326 Some(Function) "D::D(int *)" Int(1)
        "#]],
    );
}

#[test]
fn consteval_calls_that_are_no_constant_expressions() {
    // 2933 at the call's `(`, note 2689 at the first read of a parameter or
    // a non-const local; the outer call of nested ones. Left alone: const
    // locals, reference parameters (another note), immediate functions,
    // constexpr callers, calls in lambdas, templates.
    check20(
        r#"
consteval int sq(int x) { return x * x; }
consteval int zero(int) { return 0; }
consteval int twice(const int &r) { return 2 * r; }
int a(int y) { return sq(y); }
int b(int y) { int z = y; return sq(z) + sq(y + 1); }
int c(int y) { return zero(y); }
int d(int y) { const int k = 3; return sq(k); }
int f(int y) { return twice(y); }
consteval int g(int y) { return sq(y); }
int h(int y) { return sq(sq(y)); }
constexpr int i(int y) { return sq(y); }
int j(int y) { return [](int w) { return sq(w); }(y); }
template <class T> int t(T y) { return sq(y); }
"#,
        Options::default(),
        expect![[r#"
            5:25 2933 Some(Function) "sq"
            5:26 2689 Some(Parameter) "y"
            6:36 2933 Some(Function) "sq"
            6:37 2689 Some(Variable) "z"
            6:44 2933 Some(Function) "sq"
            6:45 2689 Some(Parameter) "y"
            7:27 2933 Some(Function) "zero"
            7:28 2689 Some(Parameter) "y"
            11:25 2933 Some(Function) "sq"
            11:29 2689 Some(Parameter) "y"
        "#]],
    );
}

#[test]
fn ambiguous_calls_of_arithmetic_overloads() {
    // 308 with the functions it cannot choose between (547 lines) and the
    // argument types, then a note per function that cannot take them. A
    // promotion beats a conversion (`f(x)` with a float picks `f(double)`);
    // a function declared after the call is no candidate there.
    check(
        r#"
void f(int);
void f(double);
void f(char *);
void h(int, double);
void h(double, int);
void late(int);
void calls(float x) {
  f(1L);
  h(1, 2);
  f(x);
  late(2.0);
}
void late(long);
"#,
        Options::default(),
        expect![[r#"
            9:3 308 Some(OverloadedFunction) "f"
            4:6 3326 Some(Function) "f(char *)" Int(1)
            10:3 308 Some(OverloadedFunction) "h"
        "#]],
    );
}

#[test]
fn function_templates_whose_constraints_fail() {
    // 304 naming the function template, note 3327 at its name: the
    // arguments deduced from scalars make its constraints false. A
    // satisfied call, and a template whose parameter is no bare type
    // parameter, are left alone.
    check20(
        r#"
template <class T> concept Small = sizeof(T) <= 2;
template <Small T> void f(T) {}
template <class T> requires (sizeof(T) > 4) void g(T) {}
template <class T> void h(T) requires Small<T> {}
template <Small T> void p(T *) {}
void host_fn() { f(1.0); g('c'); h(1); f((short)1); p((double *)0); }
"#,
        Options::default(),
        expect![[r#"
            7:18 304 Some(FunctionTemplate) "f"
            3:25 3327 Some(FunctionTemplate) "f"
            7:26 304 Some(FunctionTemplate) "g"
            4:50 3327 Some(FunctionTemplate) "g"
            7:34 304 Some(FunctionTemplate) "h"
            5:25 3327 Some(FunctionTemplate) "h"
        "#]],
    );
}

#[test]
fn closure_types_as_kernel_template_arguments() {
    check_device(
        r#"template <class T> struct W { T t; };
template <class F> __global__ void kern(F f) { }
template <class T, class F> __global__ void kern2(T t, F f) { }
namespace ns { template <class F> __global__ void k3(F f) { } }
void host_fn() {
  int y = 1;
  auto a = [=](int p, float q) { return p + q + y; };
  kern<<<1, 1>>>(a);
  kern<<<1, 1>>>(a);
  auto b = [](int) mutable noexcept -> long { return 1; };
  kern2<<<1, 1>>>(1, W<decltype(b)>{b});
  ns::k3<<<1, 1>>>(b);
  auto g = [](auto x) { };
  kern<<<1, 1>>>(g);
}
__device__ void dev() { }
"#,
        Options::default(),
        expect![[r#"
            8:3 20125 Type { spelling: "lambda [](int, float)->float", aka: None } ", defined at t.ii:7" <- kern at 8
            11:3 20125 Type { spelling: "lambda [](int) mutable->long noexcept", aka: None } ", defined at t.ii:10" <- kern2 at 11
            12:3 20125 Type { spelling: "lambda [](int) mutable->long noexcept", aka: None } ", defined at t.ii:10" <- ns::k3 at 12
        "#]],
    );
}

#[test]
fn constexpr_host_calls_in_instances_with_their_context() {
    // A dependent call is reported per instance with the chain that
    // instantiated it (host instances included: one launches the kernel);
    // a callee referred to first inside an instance is instantiated there,
    // at once, between the caller's own findings.
    check_device(
        r#"
template <class T> constexpr T cft() { return T(1); }
template <class T> struct M { __host__ __device__ static T id() { return cft<T>(); } };
template <int B, class T> __global__ void k(T *p) { *p = M<T>::id(); }
template <class T> void run(T *p) { k<4><<<1,1>>>(p); }
template <class T> void run2(T *p) { run(p); }
template <class T> __host__ __device__ T g() { return cft<T>(); }
template <class T> __host__ __device__ T f() { T a = cft<T>(); a += g<T>(); return a; }
int main() { run2((float*)0); run((double*)0); f<int>(); }
"#,
        Options::default(),
        expect![[r#"
            3:100 20013 "cft" "id" <- T M<T>::id() [with T=float] at 4 <- void k<B,T>(T *) [with B=4, T=float] at 5 <- void run(T *) [with T=float] at 6 <- void run2(T *) [with T=float] at 9
            3:100 20013 "cft" "id" <- T M<T>::id() [with T=double] at 4 <- void k<B,T>(T *) [with B=4, T=double] at 5 <- void run(T *) [with T=double] at 9
            8:80 20013 "cft" "f" <- T f<T>() [with T=int] at 9
            7:81 20013 "cft" "g" <- T g<T>() [with T=int] at 8 <- T f<T>() [with T=int] at 9
        "#]],
    );
}

#[test]
fn constexpr_host_calls_by_dependence() {
    // Not dependent: once per template, in the context of what
    // instantiated it; a call on an object of a dependent type: twice per
    // instance; callees and callers named unqualified.
    check_device(
        r#"
namespace ns { constexpr int cf() { return 1; } }
struct F { constexpr int operator()() const { return 1; } };
__host__ __device__ int hd() { return ns::cf(); }
template <class T> __device__ T d2() { return ns::cf(); }
template <class G> __global__ void k1(G g) { g(); d2<int>(); }
template <class T> __global__ void k2() { d2<T>(); }
void h() { k1<<<1,1>>>(F{}); k2<char><<<1,1>>>(); k2<long><<<1,1>>>(); }
"#,
        Options::default(),
        expect![[r#"
            4:65 20013 "cf" "hd"
            6:60 20019 "operator()" "k1" <- void k1(G) [with G=F] at 8
            6:60 20019 "operator()" "k1" <- void k1(G) [with G=F] at 8
            5:60 20017 "cf" "d2" <- void k1(G) [with G=F] at 8
        "#]],
    );
}

#[test]
fn constexpr_host_calls_in_instances_relaxed() {
    check_device(
        r#"
constexpr int cf() { return 1; }
template <class T> constexpr T cft() { return T(1); }
__host__ __device__ int hd() { return cf(); }
template <class T> __device__ T d1() { return cft<T>() + cf(); }
template <class T> __global__ void k() { d1<T>(); }
void h() { k<int><<<1,1>>>(); }
"#,
        Options { relaxed_constexpr: true, ..Options::default() },
        expect![[""]],
    );
}

#[test]
fn instances_in_pending_order_and_member_access_on_scalars() {
    // A member of a class template specialization is pending from its
    // class's instantiation (`A<int> x;`), a pointer's class is not
    // instantiated; `x.m` on an object of a template parameter's type is
    // checked per instance, host ones included.
    check_device(
        r#"
template <class T> constexpr T cft() { return T(1); }
template <class T> struct A { __host__ __device__ T a() { return cft<T>(); } };
template <class T> __host__ __device__ T f() { return cft<T>(); }
template <class T> struct B { __host__ __device__ static T b() { return cft<T>(); } };
template <class T> int m(T x) { return x.m; }
template <class T> struct In { T t; int g() { return t.nope; } };
void h() {
  A<int> x;
  f<int>();
  B<long> *p = 0;
  m(2.0);
  x.a();
  B<long>::b();
  In<char>().g();
}
"#,
        Options::default(),
        expect![[r#"
            11:12 177 Some(Variable) "p"
            3:92 20013 "cft" "a" <- T A<T>::a() [with T=int] at 13
            4:81 20013 "cft" "f" <- T f<T>() [with T=int] at 10
            6:40 153 Type { spelling: "double", aka: None } <- int m(T) [with T=double] at 12
            5:99 20013 "cft" "b" <- T B<T>::b() [with T=long] at 14
            7:54 153 Type { spelling: "char", aka: None } <- int In<T>::g() [with T=char] at 15
        "#]],
    );
}

#[test]
fn options_from_a_front_end_command_line() {
    // As nvcc writes cudafe++'s and cicc's arguments for
    // `-rdc=true --expt-relaxed-constexpr --extended-lambda`.
    let args: Vec<String> =
        ["--c++17", "--extended-lambda", "--relaxed_constexpr", "--device-c", "--gen_c_file_name", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    let o = crate::Options::from_front_end_args(&args);
    assert_eq!(o, crate::Options { relaxed_constexpr: true, extended_lambda: true, whole_program: false });
    let o = crate::Options::from_front_end_args(&args[..1]);
    assert_eq!(o, crate::Options { relaxed_constexpr: false, extended_lambda: false, whole_program: true });
}

#[test]
fn operators_no_candidate_takes() {
    // (`W`'s operator is found by argument-dependent lookup, `C` converts,
    // `M` has a member, `F` a friend: silence.) Built-in candidates only (no operator function anywhere lookup or
    // argument-dependent lookup looks, no conversion function): 349 with
    // `operand types are` and a 3328 note per candidate, at the operator.
    check(
        r#"
struct S {};
namespace ns { struct T {}; enum E { e }; typedef int myint; }
enum class SE { x };
namespace w { struct W {}; W operator+(W, int); }
using w::W;
struct C { operator int() const; };
struct M { M operator-(int) const; };
struct F { friend F operator*(F, F); };
void f(S s, const S &cr, int *p, ns::E en, ns::myint mi, SE se, W w, C c, M m, F fr, double d) {
  s + 1;
  1 + cr;
  (s) <  (p);
  en == s;
  s - mi;
  se && s;
  -s;
  1 + (-s);
  s += d;
  !s;
  w + 1;
  c + 1;
  m - 1;
  fr * fr;
  s + ns::T();
}
"#,
        Options::default(),
        expect![[r#"
            11:5 349 "+"
                "S + int"
            11:5 3328 "+(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            11:5 3328 "+(<pointer to object>, <ptrdiff_t>)" Int(1)
            11:5 3328 "+(<ptrdiff_t>, <pointer to object>)" Int(1)
            12:5 349 "+"
                "int + const S"
            12:5 3328 "+(<promoted arithmetic>, <promoted arithmetic>)" Int(2)
            12:5 3328 "+(<pointer to object>, <ptrdiff_t>)" Int(1)
            12:5 3328 "+(<ptrdiff_t>, <pointer to object>)" Int(2)
            13:7 349 "<"
                "S < int *"
            13:7 3328 "<(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            13:7 3328 "<(<pointer>, <pointer>)" Int(1)
            13:7 3328 "<(<nullptr>, <nullptr>)" Int(1)
            14:6 349 "=="
                "ns::E == S"
            14:6 3328 "==(<promoted arithmetic>, <promoted arithmetic>)" Int(2)
            14:6 3328 "==(<nullptr>, <nullptr>)" Int(1)
            14:6 3328 "==(<enum>, <enum>)" Int(2)
            15:5 349 "-"
                "S - ns::myint"
            15:5 3328 "-(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            15:5 3328 "-(<pointer to object>, <ptrdiff_t>)" Int(1)
            16:6 349 "&&"
                "SE && S"
            16:6 3328 "&&(<bool>, <bool>)" Int(2)
            17:3 349 "-"
                "- S"
            17:3 3328 "-(<promoted arithmetic>)" Int(1)
            18:8 349 "-"
                "- S"
            18:8 3328 "-(<promoted arithmetic>)" Int(1)
            19:5 349 "+="
                "S += double"
            19:5 3328 "+=(<arithmetic>, <promoted arithmetic>)" Int(1)
            19:5 3328 "+=(<pointer to object>, <ptrdiff_t>)" Int(1)
            20:3 349 "!"
                "! S"
            20:3 3328 "!(<bool>)" Int(1)
            25:5 349 "+"
                "S + ns::T"
            25:5 3328 "+(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            25:5 3328 "+(<pointer to object>, <ptrdiff_t>)" Int(1)
            25:5 3328 "+(<ptrdiff_t>, <pointer to object>)" Int(1)
        "#]],
    );
}

#[test]
fn operators_in_instances() {
    // An operand declared of a template parameter's type: resolved per
    // instance, host ones included, with the instance as context; `y + 1`
    // (not dependent) and `int` instances give nothing.
    check_device(
        r#"
template <class T> T add_one(T x) { return x + 1; }
template <class T> bool neg(const T &x) { int y = 0; return !x && y + 1; }
struct S {};
S host_fn() { return add_one(S()); }
int g() { return add_one(1) + neg(S()) + neg(2); }
"#,
        Options::default(),
        expect![[r#"
            2:46 349 "+" <- T add_one(T) [with T=S] at 5
                "S + int"
            2:46 3328 "+(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            2:46 3328 "+(<pointer to object>, <ptrdiff_t>)" Int(1)
            2:46 3328 "+(<ptrdiff_t>, <pointer to object>)" Int(1)
            3:61 349 "!" <- __nv_bool neg(const T &) [with T=S] at 6
                "! const S"
            3:61 3328 "!(<bool>)" Int(1)
        "#]],
    );
}

#[test]
fn operators_on_class_template_specializations() {
    // By their arguments (`const A<float>`); a class argument (`E<P>`:
    // its namespace would be searched), an operator template in the
    // template's namespace (`q::C`) or a hidden friend (`D`): silence.
    check(
        r#"
template <class T> struct A { T v; };
template <class T, int N> struct B : A<T> {};
namespace q { template <class T> struct C {}; template <class T> C<T> operator+(C<T>, int); }
template <class T> struct D { friend D operator-(D, D) { return D(); } };
struct P {};
template <class T> struct E {};
void f(A<int> a, const A<float> &ca, B<double, 3> b, q::C<int> c, D<int> d, E<P> e) {
  a + 1;
  2 * ca;
  b == a;
  !b;
  c + 1;
  d - d;
  e + 1;
}
"#,
        Options::default(),
        expect![[r#"
            9:5 349 "+"
                "A<int> + int"
            9:5 3328 "+(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            9:5 3328 "+(<pointer to object>, <ptrdiff_t>)" Int(1)
            9:5 3328 "+(<ptrdiff_t>, <pointer to object>)" Int(1)
            10:5 349 "*"
                "int * const A<float>"
            10:5 3328 "*(<promoted arithmetic>, <promoted arithmetic>)" Int(2)
            11:5 349 "=="
                "B<double, 3> == A<int>"
            11:5 3328 "==(<promoted arithmetic>, <promoted arithmetic>)" Int(1)
            11:5 3328 "==(<nullptr>, <nullptr>)" Int(1)
            12:3 349 "!"
                "! B<double, 3>"
            12:3 3328 "!(<bool>)" Int(1)
        "#]],
    );
}

#[test]
fn operators_increments_dereference_and_subscripts() {
    // `S ++` at the operator after the operand, `S [ int ]` at the `[`;
    // `++` of a const object (not probed) and `&s` (built in) are silent.
    check(
        r#"
struct S {};
void f(S s, const S cs, int *p) {
  ++s;
  s  --;
  *s;
  s[1];
  p[s];
  ++cs;
  &s;
}
"#,
        Options::default(),
        expect![[r#"
            4:3 349 "++"
                "++ S"
            4:3 3328 "++(<non-bool arithmetic>)" Int(1)
            4:3 3328 "++(<pointer to object>)" Int(1)
            5:6 349 "--"
                "S --"
            5:6 3328 "--(<non-bool arithmetic>, <integral>)" Int(1)
            5:6 3328 "--(<pointer to object>, <integral>)" Int(1)
            6:3 349 "*"
                "* S"
            6:3 3328 "*(<pointer to object>)" Int(1)
            6:3 3328 "*(<pointer to function>)" Int(1)
            7:4 349 "[]"
                "S [ int ]"
            7:4 3328 "[](<pointer to object>, <ptrdiff_t>)" Int(1)
            7:4 3328 "[](<ptrdiff_t>, <pointer to object>)" Int(1)
            8:4 349 "[]"
                "int * [ S ]"
            8:4 3328 "[](<pointer to object>, <ptrdiff_t>)" Int(2)
            8:4 3328 "[](<ptrdiff_t>, <pointer to object>)" Int(1)
        "#]],
    );
}

#[test]
fn operators_compound_assignments_to_scalars() {
    // A scalar lvalue on the left, a class on the right: a const one too
    // (not 137: overload resolution comes first).
    check(
        r#"
struct S {};
void f(S s, int i, double d, int *p, bool b, const int ci) {
  i += s;
  d %= s;
  p -= s;
  b *= s;
  i <<= s;
  ci += s;
}
"#,
        Options::default(),
        expect![[r#"
            4:5 349 "+="
                "int += S"
            4:5 3328 "+=(<arithmetic>, <promoted arithmetic>)" Int(2)
            4:5 3328 "+=(<pointer to object>, <ptrdiff_t>)" Int(1)
            5:5 349 "%="
                "double %= S"
            5:5 3328 "%=(<integral>, <promoted integral>)" Int(1)
            6:5 349 "-="
                "int * -= S"
            6:5 3328 "-=(<arithmetic>, <promoted arithmetic>)" Int(1)
            6:5 3328 "-=(<pointer to object>, <ptrdiff_t>)" Int(2)
            7:5 349 "*="
                "bool *= S"
            7:5 3328 "*=(<arithmetic>, <promoted arithmetic>)" Int(2)
            8:5 349 "<<="
                "int <<= S"
            8:5 3328 "<<=(<integral>, <promoted integral>)" Int(2)
            9:6 349 "+="
                "const int += S"
            9:6 3328 "+=(<arithmetic>, <promoted arithmetic>)" Int(2)
            9:6 3328 "+=(<pointer to object>, <ptrdiff_t>)" Int(1)
        "#]],
    );
}
