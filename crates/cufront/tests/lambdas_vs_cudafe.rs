//! Differential test of extended lambdas (spec 30 §5) against the real
//! cudafe++: a small program is preprocessed by the real nvcc (`--keep`
//! gives the `.cpp4.ii` and cudafe++'s own host file), then `cufront
//! cudafe++` runs on the same `.ii` with the same options. The preamble
//! must be byte-identical; the per-lambda rewrites (the wrapper expression
//! of each device lambda, the `__nv_hdl_create_wrapper_t<…>` head of each
//! host-device lambda) must be equal up to white space (cufront copies the
//! parent's parameters as written, EDG re-prints them). The restriction
//! errors run both binaries directly on a hand-written `.ii` and compare
//! stderr and the exit status.

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::toolkit;

const PROGRAM: &str = r#"
#include <cuda_runtime.h>
template <typename F> __global__ void kern(F f) { f(1); }
void run(int *out, int n) {
  int scale = 2; const int cn = 5; static int st = 1; const float cf = 2.0f;
  auto dl = [=] __device__ (int x) { return x * scale + n + cn + (int)cf + out[0]; };
  kern<<<1, 1>>>(dl);
  auto d2 = [scale, y = n, w(scale)] __device__ (int x) -> long { return x + scale + y + w; };
  kern<<<1, 1>>>(d2);
  auto d3 = [=] __device__ (int x) { return x + sizeof(scale) + (decltype(n))1; };
  kern<<<1, 1>>>(d3);
  auto h1 = [] __host__ __device__ (int i) { return i; };
  auto h2 = [=] __host__ __device__ (int i) { return i; };
  auto h3 = [scale] __host__ __device__ (int i) mutable { return i + scale; };
  auto h4 = [] __host__ __device__ (int i) mutable noexcept { return i; };
  kern<<<1, 1>>>(h1); kern<<<1, 1>>>(h2); kern<<<1, 1>>>(h3); kern<<<1, 1>>>(h4);
  for (int k = 0; k < 2; ++k) { int j = k; kern<<<1, 1>>>([=] __device__ (int q) { int m = q; return m + j + k; }); }
}
void nested(int a) { auto h = [&](int b) { kern<<<1, 1>>>([=] __device__ (int x) { return x + a + b; }); }; h(1); }
struct Fn { int m; void operator()(int z) const { kern<<<1, 1>>>([=] __device__ (int x) { return x + z + m; }); } };
namespace NS { void nf(double d) { kern<<<1, 1>>>([d] __device__ (int) { return d; }); } }
struct Obj {
  int mem = 1;
  void meth() { kern<<<1, 1>>>([=] __device__ (int x) { return x + mem; }); }
  void cm() const { kern<<<1, 1>>>([*this] __device__ (int x) { return x + mem; }); kern<<<1, 1>>>([this] __device__ (int x) { return x + mem; }); }
  void mm() { kern<<<1, 1>>>([*this] __device__ (int x) mutable { mem++; return x + mem; }); }
  void om(int q);
};
void Obj::om(int q) { kern<<<1, 1>>>([=] __device__ (int x) { return x + mem + q; }); }
template <typename T> void tfun(T v) { kern<<<1, 1>>>([=] __device__ (int x) { return x + v; }); }
int main() { int o[1]; run(o, 1); nested(1); Fn{1}(2); tfun(1); Obj().meth(); Obj().cm(); Obj().mm(); Obj().om(1); NS::nf(1.0); }
"#;

/// A scratch folder for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-lambdas-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the real nvcc on `PROGRAM` as `std`, then cufront on its `.cpp4.ii`:
/// (real host file, ours).
fn both(std: &str, dir: &Path) -> (String, String) {
    let src = dir.join("lam.cu");
    std::fs::write(&src, PROGRAM).unwrap();
    let out = Command::new(toolkit().nvcc())
        .args([&format!("-std={std}"), "-arch=sm_90", "--extended-lambda", "--keep", "--keep-dir"])
        .arg(dir)
        .args(["-c", "lam.cu", "-o", "lam.o"])
        .current_dir(dir)
        .output()
        .expect("run nvcc");
    assert!(out.status.success(), "nvcc: {}", String::from_utf8_lossy(&out.stderr));
    let real = std::fs::read_to_string(dir.join("lam.cudafe1.cpp")).unwrap();
    let ours = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .arg("cudafe++")
        .arg(format!("--{std}"))
        .args([
            "--static-host-stub",
            "--device-hidden-visibility",
            "--gnu_version=120200",
            "--display_error_number",
            "--orig_src_file_name",
            "lam.cu",
            "--allow_managed",
            "--extended-lambda",
            "--m64",
            "--parse_templates",
            "--gen_c_file_name",
            "ours.cpp",
            "--stub_file_name",
            "lam.cudafe1.stub.c",
            "lam.cpp4.ii",
        ])
        .current_dir(dir)
        .output()
        .expect("run cufront");
    assert!(ours.status.success(), "cufront: {}", String::from_utf8_lossy(&ours.stderr));
    (real, std::fs::read_to_string(dir.join("ours.cpp")).unwrap())
}

/// The preamble: from its line directive to the sentinel's `#if 0`.
fn preamble(host: &str) -> &str {
    let start = host.find("# 1 \"nvcc_internal_extended_lambda_implementation\"").expect("a preamble");
    let end = start + host[start..].find("#if 0\n").expect("the sentinel's #if 0");
    &host[start..end]
}

/// The wrapper expressions, white space removed, in order.
fn rewrites(host: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in host.match_indices("__nv_dl_wrapper_t< __nv_dl") {
        let line = host[at..].lines().next().unwrap_or("");
        out.push(line.split_whitespace().collect());
    }
    for (at, _) in host.match_indices("__nv_hdl_create_wrapper_t< ") {
        let head = host[at..].split("::__nv_hdl_create_wrapper(").next().unwrap_or("");
        out.push(head.split_whitespace().collect());
    }
    out
}

fn compare(std: &str) {
    let dir = scratch(std);
    let (real, ours) = both(std, &dir);
    assert!(preamble(&real) == preamble(&ours), "{std}: the preambles differ");
    let (r, o) = (rewrites(&real), rewrites(&ours));
    assert_eq!(r.len(), 17, "{std}: the real rewrites: {r:#?}");
    assert_eq!(r, o, "{std}: the lambda rewrites differ");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lambda_rewrites_match_the_real_cudafe_cxx17() {
    compare("c++17");
}

/// C++14: no `noexcept` trait specializations in the preamble.
#[test]
fn lambda_rewrites_match_the_real_cudafe_cxx14() {
    compare("c++14");
}

/// The restrictions of spec 30 §5.3 that cufront decides: each input line
/// breaks one.
const RESTRICTED: &str = "# 1 \"r.cu\"\n\
void ref() { int a = 1; auto l = [&a] __attribute__((device)) (int x) { return x + a; }; }\n\
auto ded() { int a = 1; auto l = [a] __attribute__((device)) (int x) { return x + a; }; return 1; }\n\
void cx() { auto l = [] __attribute__((device)) (int x) constexpr { return x; }; }\n\
void hdi() { int a = 1; auto l = [b = a] __attribute__((host)) __attribute__((device)) (int x) { return x + b; }; }\n\
void hdg() { auto l = [] __attribute__((host)) __attribute__((device)) (auto x) { return x; }; }\n\
void ing() { auto g = [](auto y) { auto l = [] __attribute__((device)) (int x) { return x; }; return y; }; g(1); }\n\
void inhd() { auto g = [] __attribute__((host)) __attribute__((device)) (int y) { auto l = [] __attribute__((device)) (int x) { return x; }; return y; }; }\n\
void refall() { int a = 1; auto l = [&] __attribute__((device)) (int x) { return x + a; }; }\n\
void none(int b) { auto l = [&] __attribute__((device)) (int x) { return x; }; }\n\
struct M { int m; void f() { auto l = [&] __attribute__((device)) (int x) { return x + m; }; } };\n\
void mix(int b) { int a = 1; auto l = [&, b] __attribute__((device)) (int x) { return x + a + b + a; }; }\n\
void eqref(int b) { int a = 1; auto l = [=, &a] __attribute__((device)) (int x) { return x + a + b; }; }\n\
struct S { S(int a) { auto l = [=] __attribute__((device)) (int x) { return x + a; }; } };\n\
void hdref(int a) { auto l = [&] __attribute__((host)) __attribute__((device)) (int x) { return x + a; }; auto m = [&a] __attribute__((host)) __attribute__((device)) (int x) { return x + a; }; }\n\
class C1 { void f() { auto l = [] __attribute__((device)) (int x) { return x; }; } public: void g(); };\n\
struct C2 { protected: void f() { auto l = [] __attribute__((device)) (int x) { return x; }; } };\n\
void outer() { struct L { void m() { auto l = [] __attribute__((device)) (int x) { return x; }; } }; }\n\
struct { void m() { auto l = [] __attribute__((device)) (int x) { return x; }; } } unnamed_obj;\n\
struct O { private: struct I { void m() { auto l = [] __attribute__((device)) (int x) { return x; }; } }; };\n\
struct P { void h(); private: void k(); };\n\
void P::k() { auto l = [] __attribute__((device)) (int x) { return x; }; }\n\
struct Q { protected: struct I { struct J { void m() { auto l = [] __attribute__((device)) (int x) { return x; }; } }; }; };\n";

const NO_FLAG: &str = "# 1 \"f.cu\"\nvoid f() { auto l = [] __attribute__((device)) (int x) { return x; }; }\n";

fn errors_of(text: &str, extended: bool) {
    let dir = scratch(if extended { "restricted" } else { "no-flag" });
    std::fs::write(dir.join("in.ii"), text).unwrap();
    let mut args = vec!["--c++17", "--display_error_number", "--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp"];
    if extended {
        args.push("--extended-lambda");
    }
    args.push("in.ii");
    let run = |mut c: Command| {
        let out = c.args(&args).current_dir(&dir).env("NOCOLOR", "1").output().expect("runs");
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let real = run(Command::new(toolkit().cudafe()));
    let mut ours = Command::new(env!("CARGO_BIN_EXE_cufront"));
    ours.arg("cudafe++");
    let ours = run(ours);
    assert!(real.1.contains("error"), "the real cudafe++ reports errors: {}", real.1);
    assert_eq!(real, ours);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn restriction_errors_match_the_real_cudafe() {
    errors_of(RESTRICTED, true);
}

#[test]
fn annotation_without_the_flag_is_an_error() {
    errors_of(NO_FLAG, false);
}
