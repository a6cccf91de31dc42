//! Robustness of every command on pathological inputs (issue 22): no panic,
//! no signal (stack overflow, abort on allocation failure), memory under a
//! hard limit, time within a bound, and no output file after a failed
//! cudafe++ run. The inputs are generated here, never committed.
//!
//! Each run is a child process under `ulimit -v` (a runaway allocation
//! aborts it, which the test reports) and a wall-clock timeout.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use cufront_tests::limited::{self, listing};

/// Address-space limit of each run, in KiB (the allocator reserves more than
/// it touches: this is a bound on runaway growth, not a measurement).
const MEMORY_LIMIT_KIB: u64 = 4 << 20;
/// Wall-clock limit of each run (an unoptimised build on a shared machine).
const TIME_LIMIT: Duration = Duration::from_secs(120);

const N: usize = 100_000;

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-robust-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `cufront ARGS` in `dir` under the limits.
fn run_in(dir: &Path, args: &[&str]) -> limited::Outcome {
    let limits = limited::Limits { memory_kib: MEMORY_LIMIT_KIB, time: TIME_LIMIT };
    limited::run(Path::new(env!("CARGO_BIN_EXE_cufront")), dir, args, limits)
}

/// Every command on `text`: each ends with a status (not a signal, not a
/// panic's 101) within the limits; a failed cudafe++ run writes no file.
fn survives(name: &str, text: &[u8], cudafe_extra: &[&str]) -> Vec<String> {
    let dir = scratch(name);
    std::fs::write(dir.join("in.ii"), text).unwrap();
    let mut cudafe = vec!["cudafe++", "--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp"];
    cudafe.extend_from_slice(cudafe_extra);
    cudafe.push("in.ii");
    let commands: [&[&str]; 5] = [
        &["parse", "in.ii"],
        &["inspect", "symbols", "in.ii"],
        &["inspect", "static-asserts", "in.ii"],
        &["inspect", "layout", "in.ii"],
        &cudafe,
    ];
    let mut failures = Vec::new();
    for args in commands {
        let o = run_in(&dir, args);
        let what = format!("{name}: `cufront {}`", args.join(" "));
        match o.code {
            None | Some(101) => {
                failures.push(format!("{what}: status {:?} after {:?}\n{}", o.code, o.elapsed, o.stderr))
            }
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

fn nested(prefix: &str, open: &str, middle: &str, close: &str, suffix: &str) -> Vec<u8> {
    let mut s = String::from(prefix);
    s.push_str(&open.repeat(N));
    s.push_str(middle);
    s.push_str(&close.repeat(N));
    s.push_str(suffix);
    s.into_bytes()
}

#[test]
fn pathological_inputs_are_survived() {
    let raw = "const char *s = R\"éééééééééé(x)éééééééééé\";\nconst char *t = R\"é(x)é\";\n";
    let cases: Vec<(&str, Vec<u8>, &[&str])> = vec![
        ("raw_string_utf8_delimiter", raw.as_bytes().to_vec(), &[]),
        ("nested_conditionals", nested("int x = ", "1 ? ", "1", " : 0", ";\n"), &[]),
        (
            "nested_template_args_in_body",
            nested("template <class T> struct a {}; void f() { ", "a<", "int", ">", " x; }\n"),
            &[],
        ),
        // 1 MB of NUL bytes: a warning each; the cudafe++ mode runs with
        // `-w` (a million warnings under a megabyte-long source line is
        // cudafe++'s own, quadratic, output).
        ("nul_bytes", vec![0u8; 1 << 20], &["-w"]),
        ("pointer_declarator", format!("int {} p;\n", "*".repeat(N)).into_bytes(), &[]),
        ("array_declarator", format!("int a{};\n", "[1]".repeat(N)).into_bytes(), &[]),
        ("unclosed_braces", format!("void f() {{{}\n", "{".repeat(N)).into_bytes(), &[]),
        ("nested_parens_static_assert", nested("static_assert(", "(", "1", ")", ", \"\");\n"), &[]),
        ("unary_chain", format!("static_assert({}0, \"\");\n", "!".repeat(N)).into_bytes(), &[]),
        ("sum_chain", format!("static_assert({}1 == {}, \"\");\n", "1+".repeat(N), N + 1).into_bytes(), &[]),
        ("bad_bytes", "@`\u{1}".repeat(N / 3).into_bytes(), &[]),
        // A class whose two members are of its own type with braced
        // initializers (error recovery): 2^32 nested initializers visited
        // before (the `semantic` fuzz target's timeout).
        ("self_member_initializers", b"struct P{P p{;P p{}}p".to_vec(), &[]),
        // The same class with the second initializer missing: its implicit
        // default constructor required itself twice, and the closure of
        // required entities queued it again per occurrence (2^depth).
        ("self_requiring_constructor", b"struct P{P p{;P p3=}p".to_vec(), &[]),
    ];
    let mut failures = Vec::new();
    for (name, text, extra) in &cases {
        failures.extend(survives(name, text, extra));
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Time of `cufront ARGS` on `text` (the best of two runs).
fn time_of(tag: &str, text: &str, args: &[&str]) -> Duration {
    let dir = scratch(tag);
    std::fs::write(dir.join("in.ii"), text).unwrap();
    let mut full: Vec<&str> = args.to_vec();
    full.push("in.ii");
    let best = (0..2)
        .map(|_| {
            let o = run_in(&dir, &full);
            assert!(o.code.is_some_and(|c| c != 101), "{tag}: status {:?}\n{}", o.code, o.stderr);
            o.elapsed
        })
        .min()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    best
}

/// Error recovery and reporting are linear: `void f() {` and n unclosed
/// `{` after a unit take about 4 times as long with 4 times as many braces
/// (a quadratic walk per reported error took 30-54 s on a large unit).
#[test]
fn unclosed_braces_cost_linear_time() {
    let unit: String = (0..3000).map(|i| format!("struct S{i} {{ int a; void f() {{ a = {i}; }} }};\n")).collect();
    let cudafe: &[&str] = &["cudafe++", "--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp"];
    let with = |n: usize| format!("{unit}void f() {{{}\n", "{".repeat(n));
    let small = time_of("braces-small", &with(N / 4), cudafe);
    let large = time_of("braces-large", &with(N), cudafe);
    // Linear: 4x; allow for start-up and noise, fail on quadratic (16x).
    let bound = small * 10 + Duration::from_millis(500);
    assert!(large <= bound, "{:?} with {} braces, {:?} with {}: not linear", large, N, small, N / 4);
}

/// SIGINT and SIGTERM end a cudafe++ run as they end cudafe++'s: the last
/// stderr line is `Compilation terminated.` after a blank line, the status
/// is 4, and no output file is left. The input keeps both busy (a warning
/// per NUL byte under a long line) until the signal comes.
#[test]
fn signals_end_the_run_as_cudafe_does() {
    let tk = cufront_tests::toolkit();
    for signal in ["INT", "TERM"] {
        for (who, program, first) in [
            ("cudafe++", tk.cudafe().to_path_buf(), None),
            ("cufront", PathBuf::from(env!("CARGO_BIN_EXE_cufront")), Some("cudafe++")),
        ] {
            let dir = scratch(&format!("signal-{signal}-{who}"));
            std::fs::write(dir.join("in.ii"), vec![0u8; 1 << 20]).unwrap();
            let mut cmd = Command::new(&program);
            cmd.args(first).args(["--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp", "in.ii"]);
            let mut child = cmd.current_dir(&dir).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
            let mut err = child.stderr.take().unwrap();
            let tail = std::thread::spawn(move || {
                // Keep only the end: the run writes without bound until the signal.
                let mut last = Vec::new();
                let mut buf = vec![0u8; 1 << 16];
                while let Ok(n) = std::io::Read::read(&mut err, &mut buf) {
                    if n == 0 {
                        break;
                    }
                    last.extend_from_slice(&buf[..n]);
                    if last.len() > 1 << 17 {
                        last.drain(..last.len() - 256);
                    }
                }
                last
            });
            std::thread::sleep(Duration::from_millis(1500));
            let status = Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status().unwrap();
            assert!(status.success());
            let code = child.wait().unwrap().code();
            let last = String::from_utf8_lossy(&tail.join().unwrap()).into_owned();
            assert_eq!(code, Some(4), "{who} on SIG{signal}");
            assert!(last.ends_with("\nCompilation terminated.\n"), "{who} on SIG{signal}: stderr ends {last:?}");
            assert_eq!(listing(&dir), ["in.ii"], "{who} on SIG{signal} left files");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// A listing whose reader stops early (`cufront parse --tree x.ii | head`)
/// ends the run by the broken pipe, as other Unix tools end: no panic.
#[test]
fn a_closed_pipe_ends_listings_quietly() {
    let dir = scratch("closed-pipe");
    let unit: String = (0..20000).map(|i| format!("int v{i} = {i};\n")).collect();
    std::fs::write(dir.join("in.ii"), unit).unwrap();
    for args in [&["parse", "--tree", "in.ii"][..], &["inspect", "symbols", "in.ii"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cufront"))
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        std::io::Read::read_exact(&mut out, &mut first).unwrap();
        drop(out);
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.code() != Some(101) && !stderr.contains("panicked"), "{args:?}: {:?}\n{stderr}", o.status);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
