//! Differential test of the cudafe++ command line: every case of
//! `tests/cli/cases.txt` runs against the real cudafe++ (the oracle) and
//! against `cufront cudafe++` with the same arguments, each in its own
//! scratch folder; stderr (scratch path normalised, times masked), stdout and
//! the exit status must be equal. Also checks that the binary behaves as
//! cudafe++ when it is *named* `cudafe++`, and that failed runs create no file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const NORMAL: &[&str] = &["--stub_file_name", "s.c", "--gen_c_file_name", "o.cpp"];

struct Case {
    line: usize,
    name: String,
    args: Vec<String>,
    sarif: bool,
    stdin: Option<String>,
    known_diff: bool,
}

fn cli_dir() -> PathBuf {
    cufront_tests::workspace_root().join("tests/cli")
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(cli_dir().join("cases.txt")).expect("tests/cli/cases.txt");
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split("   #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split('|').map(str::trim);
        let name = parts.next().unwrap_or_default().to_string();
        let mut args = Vec::new();
        for w in parts.next().unwrap_or_default().split_whitespace() {
            if w == "$N" {
                args.extend(NORMAL.iter().map(|s| s.to_string()));
            } else {
                args.push(w.to_string());
            }
        }
        let mut case = Case { line: i + 1, name, args, sarif: false, stdin: None, known_diff: false };
        for opt in parts.next().unwrap_or_default().split_whitespace() {
            match opt {
                "sarif" => case.sarif = true,
                "known-diff" => case.known_diff = true,
                o if o.starts_with("stdin=") => case.stdin = Some(o["stdin=".len()..].to_string()),
                o => panic!("cases.txt:{}: unknown option {o}", i + 1),
            }
        }
        out.push(case);
    }
    out
}

/// A fresh folder with the inputs and an empty folder `dir.ii`.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-cli-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dir.ii")).unwrap();
    // Inputs are kept as `NAME.in` (no `.ii` is committed) and written out as `NAME.ii` here.
    for e in std::fs::read_dir(cli_dir().join("inputs")).unwrap() {
        let path = e.unwrap().path();
        let target = match path.extension().and_then(|x| x.to_str()) {
            Some("in") => path.with_extension("ii"),
            _ => path.clone(),
        };
        std::fs::copy(&path, dir.join(target.file_name().unwrap())).unwrap();
    }
    dir
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    /// Files the run created.
    created: Vec<String>,
}

fn run(mut cmd: Command, case: &Case, tag: &str) -> Run {
    let dir = scratch(tag);
    let before = listing(&dir);
    cmd.args(&case.args).current_dir(&dir).env("NOCOLOR", "1").stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(match &case.stdin {
        Some(f) => Stdio::from(std::fs::File::open(dir.join(f)).unwrap()),
        None => Stdio::null(),
    });
    let out = cmd.output().expect("runs");
    let after = listing(&dir);
    let created = after.into_iter().filter(|f| !before.contains(f)).collect();
    let dir_s = dir.display().to_string();
    let norm = |b: &[u8]| mask_times(&String::from_utf8_lossy(b).replace(&dir_s, "$DIR"));
    let r = Run { stdout: norm(&out.stdout), stderr: norm(&out.stderr), code: out.status.code(), created };
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// `%10.2f` times differ from run to run: keep the layout, drop the digits.
fn mask_times(s: &str) -> String {
    s.lines()
        .map(|l| {
            if l.ends_with("(elapsed)") {
                let label: String = l.chars().take(30).collect();
                format!("{label} <time>")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn real(tk: &cufront_tests::Toolkit) -> Command {
    Command::new(tk.cudafe())
}

fn ours() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cufront"));
    c.arg("cudafe++");
    c
}

/// What is compared: exit status, stdout (unless stdin feeds code to it) and
/// stderr, as text or as parsed SARIF.
fn observable(r: &Run, case: &Case) -> String {
    let stderr = if case.sarif {
        match serde_json::from_str::<serde_json::Value>(&r.stderr) {
            Ok(v) => serde_json::to_string_pretty(&v).unwrap(),
            Err(e) => format!("<invalid JSON: {e}>\n{}", r.stderr),
        }
    } else {
        r.stderr.clone()
    };
    let stdout = if case.stdin.is_some() { "<not compared>" } else { r.stdout.as_str() };
    format!("exit: {:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}", r.code)
}

#[test]
fn cudafe_command_line_matches_the_real_binary() {
    let tk = cufront_tests::toolkit();
    let cases = cases();
    assert!(cases.len() >= 50, "the suite keeps at least 50 cases");
    let mut failures = Vec::new();
    for case in &cases {
        let theirs = run(real(tk), case, "real");
        let mine = run(ours(), case, "ours");
        let (a, b) = (observable(&theirs, case), observable(&mine, case));
        if case.known_diff {
            if a == b {
                failures.push(format!(
                    "cases.txt:{} {}: listed as a known difference but now matches: drop `known-diff`",
                    case.line, case.name
                ));
            }
            continue;
        }
        if a != b {
            failures.push(format!(
                "cases.txt:{} {} ({})\n=== cudafe++\n{a}\n=== cufront\n{b}",
                case.line,
                case.name,
                case.args.join(" ")
            ));
        }
        // Output files are written whole or not at all: a failed run leaves none.
        if mine.code != Some(0) && !mine.created.is_empty() {
            failures.push(format!("{}: failed run created {:?}", case.name, mine.created));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

#[test]
fn binary_named_cudafe_is_cudafe() {
    let dir = std::env::temp_dir().join(format!("cufront-cli-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("cudafe++");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_cufront"), &link).unwrap();
    let out = Command::new(&link).arg("--tim").output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .starts_with("Command-line error: more than one command line option matches the abbreviation \"--tim\":\n"),
        "{stderr}"
    );
    // Plain `cufront --help` stays clap's help.
    let help = Command::new(env!("CARGO_BIN_EXE_cufront")).arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("cudafe++"));
    let _ = std::fs::remove_dir_all(&dir);
}
