//! Hostile inputs through every command (issue 22).
//!
//! Every recursive walker against deep input: each shape of
//! nesting that a walker recurses over — in the syntax (parentheses, unary
//! operators, casts, lambdas in lambdas, braces and initializer lists,
//! classes and namespaces, declarator chains, template arguments, member,
//! call and operator chains, `decltype`) and in the semantic model, where
//! short lines nest without bound (alias and typedef chains, template
//! instantiation chains, bases, members, constants, enumerators) — is run
//! through every command: `parse`, the `inspect` listings, the cudafe++
//! mode, cicc's front end (`device`) and `check`.
//!
//! Each run is a child process under `ulimit -v` and a wall-clock limit:
//! it must end with a status (no signal, no panic's 101), and a failed
//! cudafe++ run leaves no output. Syntax nesting is bounded by the parser
//! (`MAX_NESTING`, "nesting too deep"); semantic nesting grows the stack
//! on demand (recorded queries) or is bounded where a tree would be built
//! (`mangle_ty`, the mangler). The time limit catches super-linear work:
//! at these sizes a quadratic walk takes hours.
//!
//! The runs use the debug build CI tests (deep recursion costs most there).
//!
//! The reproducers the fuzz targets found (`crates/syntax/fuzz/regressions`,
//! minimized with `cargo fuzz tmin`) go through the same commands: the
//! syntax crate replays them through the parser only, and most were found
//! by the semantic, `check` and cudafe++ targets.

use std::path::Path;
use std::time::Duration;

use cufront_tests::limited;

/// Address-space limit of each run, in KiB: a bound on runaway growth.
const MEMORY_LIMIT_KIB: u64 = 4 << 20;
/// Wall-clock limit of each run (an unoptimised build on a shared machine).
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Nesting of the syntax shapes.
const N: usize = 100_000;
/// Length of the semantic chains: one line per level, and each level is a
/// query (or a few) deep on the stack, grown on demand: tens of KiB per
/// level in a debug build.
const CHAIN: usize = 20_000;

fn nest(prefix: &str, open: &str, middle: &str, close: &str, suffix: &str, n: usize) -> String {
    let mut s = String::with_capacity(prefix.len() + n * (open.len() + close.len()) + middle.len() + suffix.len());
    s.push_str(prefix);
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(middle);
    for _ in 0..n {
        s.push_str(close);
    }
    s.push_str(suffix);
    s
}

fn lines(n: usize, first: &str, line: impl Fn(usize) -> String, last: impl Fn(usize) -> String) -> String {
    let mut s = String::from(first);
    for i in 1..n {
        s.push_str(&line(i));
    }
    s.push_str(&last(n - 1));
    s
}

/// Deep shapes of the syntax: every one is cut at the parser's nesting
/// limit or is flat in the tree (left-recursive chains).
fn syntax_shapes() -> Vec<(&'static str, String)> {
    vec![
        ("parens_in_body", nest("int f() { return ", "(", "1", ")", "; }\n", N)),
        ("parens_at_namespace_scope", nest("int x = ", "(", "1", ")", ";\n", N)),
        ("unary_minus", format!("int x = {}1;\n", "- ".repeat(N))),
        ("unary_not_in_body", format!("bool f() {{ return {}1; }}\n", "!".repeat(N))),
        ("deref_addr_in_body", format!("int v; int f() {{ return {}v; }}\n", "*&".repeat(N))),
        ("c_casts", format!("int x = {}1;\n", "(int)".repeat(N))),
        ("static_casts", nest("int x = ", "static_cast<int>(", "1", ")", ";\n", N)),
        ("sizeof_chain", format!("const unsigned long x = {}1;\n", "sizeof ".repeat(N))),
        ("lambdas_in_lambdas", nest("auto f = ", "[]{ return ", "0", "; }()", ";\n", N)),
        ("lambdas_in_body", nest("int g() { return ", "[]{ return ", "0", "; }()", "; }\n", N)),
        ("device_lambdas", nest("__device__ int g() { return ", "[]{ return ", "0", "; }()", "; }\n", N)),
        ("initializer_lists", nest("int a = ", "{", "1", "}", ";\n", N)),
        ("initializer_lists_in_body", nest("void f() { int a = ", "{", "1", "}", "; }\n", N)),
        ("blocks", nest("void f() ", "{ ", "", "}", "\n", N)),
        ("ifs", format!("void f() {{ {}; }}\n", "if (1) ".repeat(N))),
        ("whiles", format!("void f() {{ {}; }}\n", "while (0) ".repeat(N))),
        ("conditionals_in_body", nest("int f() { return ", "1 ? ", "1", " : 0", "; }\n", N)),
        ("nested_calls", nest("int f(int); int g() { return ", "f(", "1", ")", "; }\n", N)),
        ("nested_classes", nest("", "struct A { ", "int x;", " };", "\n", N)),
        ("nested_namespaces", nest("", "namespace a { ", "int x;", " }", "\n", N)),
        ("nested_linkage_specs", nest("", "extern \"C++\" { ", "int x;", " }", "\n", N)),
        ("pointer_declarator", format!("int {} p;\n", "*".repeat(N))),
        ("pointer_parameter", format!("void f(int {} p) {{}}\n", "*".repeat(N))),
        ("kernel_pointer_parameter", format!("__global__ void k(int {} p) {{}}\n", "*".repeat(N))),
        ("const_pointer_declarator", format!("int {} p;\n", "* const ".repeat(N))),
        ("array_declarator", format!("int a{};\n", "[1]".repeat(N))),
        ("function_declarators", nest("int ", "(*", "p", ")()", ";\n", N)),
        ("member_pointer_declarator", format!("struct A {{}}; int {} p;\n", "A::*".repeat(N))),
        ("template_args", nest("template <class T> struct a {}; ", "a<", "int", ">", " x;\n", N)),
        ("template_args_in_body", nest("template <class T> struct a {}; void f() { ", "a<", "int", ">", " x; }\n", N)),
        ("qualified_injected_names", format!("struct A {{}}; {}A x;\n", "A::".repeat(N))),
        ("member_chain", format!("struct S {{ S &b; }}; S &f(S &s) {{ return s{}; }}\n", ".b".repeat(N))),
        ("arrow_chain", format!("struct S {{ S *b; }}; S *f(S *s) {{ return s{}; }}\n", "->b".repeat(N))),
        ("call_chain", format!("struct S {{ S &operator()(); }}; S &f(S &s) {{ return s{}; }}\n", "()".repeat(N))),
        ("subscript_chain", format!("int f(int ***a) {{ return a{}; }}\n", "[0]".repeat(N))),
        ("sum_chain", format!("int a; int f() {{ return a{}; }}\n", "+a".repeat(N))),
        ("sum_chain_at_namespace_scope", format!("const int x = 1{};\n", "+1".repeat(N))),
        ("assignment_chain", format!("int a; void f() {{ {}1; }}\n", "a=".repeat(N))),
        ("comma_chain", format!("int a; void f() {{ a{}; }}\n", ",a".repeat(N))),
        ("nested_decltype", format!("using T = {}1{});\n", "decltype(".repeat(N), ")()".repeat(N - 1))),
    ]
}

/// Deep shapes of the semantic model: each line refers to the one before.
fn semantic_shapes() -> Vec<(&'static str, String)> {
    let n = CHAIN;
    vec![
        (
            "pointer_alias_chain",
            lines(
                n,
                "using T0 = int;\n",
                |i| format!("using T{i} = T{}*;\n", i - 1),
                |l| format!("void f(T{l}) {{}}\nT{l} v;\n"),
            ),
        ),
        (
            "template_alias_chain",
            lines(
                n,
                "template <class T> struct W {};\nusing T0 = int;\n",
                |i| format!("using T{i} = W<T{}>;\n", i - 1),
                |l| format!("void f(T{l}) {{}}\nT{l} v;\n"),
            ),
        ),
        (
            "kernel_template_alias_chain",
            lines(
                n,
                "template <class T> struct W {};\nusing T0 = int;\n",
                |i| format!("using T{i} = W<T{}>;\n", i - 1),
                |l| format!("template <class T> __global__ void k(T) {{}}\ntemplate __global__ void k<T{l}>(T{l});\n"),
            ),
        ),
        (
            "function_typedef_chain",
            lines(n, "typedef int F0;\n", |i| format!("typedef F{} (*F{i})();\n", i - 1), |l| format!("F{l} v;\n")),
        ),
        (
            "member_class_chain",
            lines(
                n,
                "struct A0 { int x; };\n",
                |i| format!("struct A{i} {{ A{} a; }};\n", i - 1),
                |l| format!("A{l} v;\nstatic_assert(sizeof(A{l}) == 4, \"\");\n"),
            ),
        ),
        (
            "base_class_chain",
            lines(
                n,
                "struct A0 { int x; };\n",
                |i| format!("struct A{i} : A{} {{ }};\n", i - 1),
                |l| format!("A{l} v;\nint g() {{ return v.x; }}\n"),
            ),
        ),
        (
            "constant_chain",
            lines(
                n,
                "constexpr int c0 = 0;\n",
                |i| format!("constexpr int c{i} = c{} + 1;\n", i - 1),
                |l| format!("static_assert(c{l} == {l}, \"\");\nint arr[c{l}];\n"),
            ),
        ),
        (
            "enumerator_chain",
            lines(n, "enum E { e0,\n", |i| format!("e{i},\n"), |l| format!("}};\nstatic_assert(e{l} == {l}, \"\");\n")),
        ),
        (
            "enumerator_reference_chain",
            lines(
                n,
                "enum E { e0 = 0,\n",
                |i| format!("e{i} = e{} + 1,\n", i - 1),
                |l| format!("}};\nstatic_assert(e{l} == {l}, \"\");\n"),
            ),
        ),
        // Short inputs whose evaluation nests: EDG's limits, reported.
        (
            "instantiation_chain",
            format!(
                "template <int N> struct S {{ static const int v = S<N - 1>::v + 1; }};\n\
                 template <> struct S<0> {{ static const int v = 0; }};\nstatic_assert(S<{N}>::v == {N}, \"\");\n"
            ),
        ),
        // EDG stops at 200 nested instantiations ("excessive recursion",
        // `check`'s instantiation walk); the model's own walks over bases
        // (triviality, layout, symbols) follow the whole chain, each base
        // instantiated when asked for: linear in the argument.
        (
            "inherited_instantiation_chain",
            format!("template <int N> struct S : S<N - 1> {{}};\ntemplate <> struct S<0> {{}};\nS<{n}> s;\n"),
        ),
        (
            "constexpr_recursion",
            format!("constexpr int f(int n) {{ return n ? f(n - 1) + 1 : 0; }}\nstatic_assert(f({N}) == {N}, \"\");\n"),
        ),
        // Types are shared, trees are not: each alias names the previous
        // one twice, 2^40 parts in the mangler's tree.
        (
            "doubling_alias_chain",
            lines(
                40,
                "template <class A, class B> struct P {};\nusing T0 = int;\n",
                |i| format!("using T{i} = P<T{}, T{}>;\n", i - 1, i - 1),
                |l| format!("void f(T{l}) {{}}\nT{l} v;\n__global__ void k(T{l}) {{}}\n"),
            ),
        ),
    ]
}

/// `cufront ARGS` in `dir` under the limits.
fn run_in(dir: &Path, args: &[&str]) -> limited::Outcome {
    let limits = limited::Limits { memory_kib: MEMORY_LIMIT_KIB, time: TIME_LIMIT };
    limited::run(Path::new(env!("CARGO_BIN_EXE_cufront")), dir, args, limits)
}

/// Runs every command on `text`; returns the failures.
fn survives(name: &str, text: &str, cuda_path: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("cufront-deep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.ii"), text).unwrap();
    std::fs::write(dir.join("in.cu"), text).unwrap();
    let commands: [&[&str]; 9] = [
        &["parse", "in.ii"],
        &["inspect", "symbols", "in.ii"],
        &["inspect", "static-asserts", "in.ii"],
        &["inspect", "layout", "in.ii"],
        &["inspect", "device", "in.ii"],
        &["cudafe++", "--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp", "in.ii"],
        &["cudafe++", "--c++20", "--extended-lambda", "--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp", "in.ii"],
        &[
            "device",
            "--c++17",
            "-arch",
            "compute_90",
            "--stub_file_name",
            "d.c",
            "--gen_device_file_name",
            "d.gpu",
            "--device_il",
            "d.il",
            "--device_il_binary",
            "d.ilb",
            "in.ii",
        ],
        &["check", "--cuda-path", cuda_path, "in.cu"],
    ];
    let mut failures = Vec::new();
    for args in commands {
        let o = run_in(&dir, args);
        let what = format!("{name}: `cufront {}`", args.join(" "));
        eprintln!("{what}: {:?} in {:.1?}", o.code, o.elapsed);
        let panicked = o.stderr.contains("panicked") || o.stderr.contains("overflowed its stack");
        match o.code {
            None | Some(101) => {
                failures.push(format!("{what}: status {:?} after {:?}\n{}", o.code, o.elapsed, o.stderr))
            }
            _ if panicked => failures.push(format!("{what}: {:?}\n{}", o.code, o.stderr)),
            Some(code) if args[0] == "cudafe++" && code != 0 && !o.created.is_empty() => {
                failures.push(format!("{what}: failed with {code} but created {:?}", o.created))
            }
            _ => {}
        }
        for f in o.created {
            let _ = std::fs::remove_file(dir.join(f));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

fn run_all(shapes: Vec<(&'static str, String)>) {
    let tk = cufront_tests::toolkit();
    let cuda_path = tk.root().display().to_string();
    let mut failures = Vec::new();
    for (name, text) in &shapes {
        failures.extend(survives(name, text, &cuda_path));
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn deep_syntax_is_survived_by_every_command() {
    run_all(syntax_shapes());
}

#[test]
fn deep_semantic_chains_are_survived_by_every_command() {
    run_all(semantic_shapes());
}

#[test]
fn fuzz_regressions_are_survived_by_every_command() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../syntax/fuzz/regressions");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("fuzz/regressions exists").map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no reproducers in {}", dir.display());
    let shapes = files
        .iter()
        .map(|p| {
            let name: &'static str = p.file_stem().unwrap().to_string_lossy().into_owned().leak();
            (name, String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        })
        .collect();
    run_all(shapes);
}
