//! The differential diagnostics suite: every `tests/diag/*.cu` (a small bad
//! input; its first line `// nvcc-flags: ...` holds the nvcc flags) is built
//! by the real nvcc step by step, as `nvcc --dryrun` lists the steps, up to
//! its front ends (host preprocessing, cudafe++, device preprocessing, cicc),
//! each step's stderr and status kept apart; the real results are cached
//! under `target/cufront-test-cache` by a hash of the case, its flags and the
//! toolkit. cufront is then run two ways and compared with nvcc exactly:
//!
//! - **overlay**: the cudafe++ step of the overlay toolkit (`cufront toolkit
//!   overlay`, whose `bin/cudafe++` is cufront) on the real host
//!   preprocessing with nvcc's exact cudafe++ command line; the steps after
//!   it are the real ones (cicc reads the device preprocessing, not
//!   cudafe++'s output). Compared: stderr of every step and nvcc's status.
//! - **check**: `cufront check CASE.cu FLAGS` against the concatenated
//!   stderr of the steps and nvcc's status (2 cudafe++ failed, 1 cicc or a
//!   preprocessor failed, 0 otherwise).
//!
//! `tests/diag/known-diffs.txt` lists `MODE CASE reason` for the pairs that
//! do not match yet: an unlisted difference fails, and so does a listed pair
//! that now matches (the list stays true). The match rates are printed.
//!
//! - **ide**: what the editor shows (`cufront-ide`, as `cufront lsp`
//!   publishes it: nvcc's two preprocessings of the file, both passes): each
//!   error and warning in the case's own file, by line, severity and first
//!   line of text, against those nvcc prints for that file (as sets: the
//!   editor shows once what both passes report).
//!
//! The valid programs of `tests/corpus` (first standard, their flags) are
//! held to the same rule by `check` (mode `corpus`): no false positive, and
//! nvcc's own warnings, if any, printed alike.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const HEADER: &str = "// nvcc-flags:";

struct Case {
    name: String,
    path: PathBuf,
    flags: Vec<String>,
    source: Vec<u8>,
}

fn diag_dir() -> PathBuf {
    cufront_tests::workspace_root().join("tests/diag")
}

fn cases() -> Vec<Case> {
    let dir = diag_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    paths.sort();
    // `CUFRONT_DIAG_CASES=a,b` runs only those cases (to try a change; the
    // suite's figures and known-diffs checks need them all).
    if let Ok(only) = std::env::var("CUFRONT_DIAG_CASES") {
        let only: Vec<&str> = only.split(',').collect();
        paths.retain(|p| p.file_stem().is_some_and(|s| only.contains(&s.to_string_lossy().as_ref())));
    }
    paths
        .into_iter()
        .map(|path| {
            let source = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&source);
            let first = text.lines().next().unwrap_or("");
            let flags = first
                .strip_prefix(HEADER)
                .unwrap_or_else(|| panic!("{}: the first line must start with `{HEADER}`", path.display()))
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            Case { name, path, flags, source }
        })
        .collect()
}

/// One front-end step of a real build.
#[derive(Clone)]
struct Step {
    /// `host-pp`, `cudafe++`, `device-pp`, `cicc`.
    kind: String,
    status: i32,
    stderr: String,
}

/// The real build of a case: its front-end steps up to the first failure,
/// cudafe++'s command line (the work folder spelled `$W`), and where the
/// host preprocessing is cached.
struct Real {
    steps: Vec<Step>,
    cudafe_argv: Vec<String>,
    dir: PathBuf,
}

/// nvcc's exit status after these steps.
fn nvcc_status(steps: &[Step]) -> i32 {
    match steps.iter().find(|s| s.status != 0) {
        None => 0,
        Some(s) if s.kind == "cudafe++" => 2,
        Some(_) => 1,
    }
}

fn kind_name(kind: cufront_tests::StepKind) -> Option<&'static str> {
    use cufront_tests::StepKind as K;
    Some(match kind {
        K::HostPreprocess => "host-pp",
        K::Cudafe => "cudafe++",
        K::DevicePreprocess => "device-pp",
        K::Cicc => "cicc",
        _ => return None,
    })
}

fn real(case: &Case) -> Real {
    let tk = cufront_tests::toolkit();
    let key = cufront_tests::cache_key(&[
        b"diag-suite v1",
        tk.version().as_bytes(),
        case.name.as_bytes(),
        case.flags.join("\0").as_bytes(),
        &case.source,
    ]);
    let dir = cufront_tests::cached_dir(&format!("diag-{}", case.name), key, |w| {
        let file = format!("{}.cu", case.name);
        std::fs::write(w.join(&file), &case.source).map_err(|e| e.to_string())?;
        let pipeline =
            tk.dryrun_args(w, Path::new(&file), &case.flags, Path::new("keep")).map_err(|e| e.to_string())?;
        let mut steps = Vec::new();
        let mut cudafe_argv = Vec::new();
        for step in &pipeline.steps {
            let Some(kind) = kind_name(step.kind) else {
                if matches!(step.kind, cufront_tests::StepKind::Other) {
                    continue;
                }
                break;
            };
            if step.kind == cufront_tests::StepKind::Cudafe {
                let w = w.display().to_string();
                cudafe_argv = step.argv.iter().map(|a| a.replace(&w, "$W")).collect();
            }
            let out = pipeline.command(step).env("NOCOLOR", "1").output().map_err(|e| e.to_string())?;
            let status = out.status.code().unwrap_or(-1);
            steps.push(json!({"kind": kind, "status": status, "stderr": String::from_utf8_lossy(&out.stderr)}));
            if status != 0 {
                break;
            }
        }
        let record = json!({"steps": steps, "cudafe_argv": cudafe_argv});
        std::fs::write(w.join("real.json"), record.to_string()).map_err(|e| e.to_string())
    })
    .unwrap_or_else(|e| panic!("{}: the real build failed to run: {e}", case.name));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("real.json")).unwrap()).unwrap();
    let steps = record["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| Step {
            kind: s["kind"].as_str().unwrap().to_string(),
            status: s["status"].as_i64().unwrap() as i32,
            stderr: s["stderr"].as_str().unwrap().to_string(),
        })
        .collect();
    let cudafe_argv = record["cudafe_argv"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().into()).collect();
    Real { steps, cudafe_argv, dir }
}

/// A fresh scratch folder holding the case.
fn scratch(case: &Case, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-diag-{}-{tag}-{}", std::process::id(), case.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("keep")).unwrap();
    std::fs::write(dir.join(format!("{}.cu", case.name)), &case.source).unwrap();
    dir
}

fn render(steps: &[Step]) -> String {
    let mut s = format!("nvcc status: {}\n", nvcc_status(steps));
    for step in steps {
        s.push_str(&format!("--- {} (status {})\n{}", step.kind, step.status, step.stderr));
    }
    s
}

/// The overlay's cudafe++ on the real host preprocessing; the other steps real.
fn overlay(case: &Case, real: &Real, cudafe: &Path) -> Vec<Step> {
    let mut steps: Vec<Step> = real.steps.iter().take_while(|s| s.kind != "cudafe++").cloned().collect();
    if real.cudafe_argv.is_empty() {
        return steps; // the host preprocessing failed: cudafe++ never runs
    }
    let dir = scratch(case, "overlay");
    let ii = format!("keep/{}.cpp4.ii", case.name);
    std::fs::copy(real.dir.join(&ii), dir.join(&ii)).unwrap();
    let w = dir.display().to_string();
    let args: Vec<String> = real.cudafe_argv[1..].iter().map(|a| a.replace("$W", &w)).collect();
    let out =
        Command::new(cudafe).args(&args).current_dir(&dir).env("NOCOLOR", "1").stdin(Stdio::null()).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let ours = Step {
        kind: "cudafe++".into(),
        status: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    let real_cudafe_ok = real.steps.iter().any(|s| s.kind == "cudafe++" && s.status == 0);
    let ok = ours.status == 0;
    steps.push(ours);
    if ok && real_cudafe_ok {
        steps.extend(real.steps.iter().skip_while(|s| s.kind != "cudafe++").skip(1).cloned());
    } else if ok {
        steps.push(Step { kind: "cicc".into(), status: 0, stderr: "<not run: the real cudafe++ failed>\n".into() });
    }
    steps
}

/// `cufront check` on the case: its stderr and status.
fn check(case: &Case) -> (String, i32) {
    let dir = scratch(case, "check");
    let out = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .arg("check")
        .arg(format!("{}.cu", case.name))
        .args(&case.flags)
        .current_dir(&dir)
        .env("NOCOLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

/// The errors and warnings nvcc's steps print for the case's own file, as
/// `LINE: error|warning: TEXT` (first line of each; EDG's `NAME.cu(LINE):
/// …` and gcc's `NAME.cu:LINE:COL: …`), sorted.
fn nvcc_file_diagnostics(case: &Case, steps: &[Step]) -> String {
    let file = format!("{}.cu", case.name);
    // EDG's `At end of source:` is the end of the unit: the editor shows it
    // on the file's last line that is not blank.
    let last_line = String::from_utf8_lossy(&case.source).trim_end().lines().count().max(1).to_string();
    let mut out = Vec::new();
    for line in steps.iter().flat_map(|s| s.stderr.lines()) {
        let (at, rest) = if let Some(rest) = line.strip_prefix("At end of source: ") {
            (last_line.as_str(), rest)
        } else if let Some(rest) = line.strip_prefix(&format!("{file}(")) {
            let Some((at, rest)) = rest.split_once("): ") else { continue };
            (at, rest)
        } else if let Some(rest) = line.strip_prefix(&format!("{file}:")) {
            let mut parts = rest.splitn(3, ':');
            let (Some(at), Some(_col), Some(rest)) = (parts.next(), parts.next(), parts.next()) else { continue };
            (at, rest.trim_start())
        } else {
            continue;
        };
        let Ok(at) = at.parse::<u32>() else { continue };
        // `error: …`, `error #940-D: …` (a promoted warning), gcc's `fatal
        // error: …`; `warning #177-D: …`, gcc's `warning: …`.
        let rest = rest.strip_prefix("fatal ").unwrap_or(rest);
        let (severity, tail) = if let Some(t) = rest.strip_prefix("error") {
            ("error", t)
        } else if let Some(t) = rest.strip_prefix("warning") {
            ("warning", t)
        } else {
            continue;
        };
        let Some((number, text)) = tail.split_once(": ") else { continue };
        if !(number.is_empty() || number.starts_with(" #")) {
            continue;
        }
        out.push(format!("{at}: {severity}: {text}"));
    }
    out.sort();
    out.dedup();
    out.iter().map(|l| format!("{l}\n")).collect()
}

/// What the editor shows for the case's file (`cufront-ide`: nvcc's
/// preprocessings, then both passes, as `cufront lsp` publishes them), in
/// `nvcc_file_diagnostics`' form.
fn ide(case: &Case) -> String {
    use cufront_ide::{Severity, preprocess, workspace};
    let dir = scratch(case, "ide");
    let file = dir.join(format!("{}.cu", case.name));
    let flags = workspace::FileFlags {
        directory: dir.clone(),
        options: workspace::nvcc_options(&case.flags, &file),
        from_database: true,
    };
    let pre = preprocess::Preprocessor::new(cufront_tests::toolkit().clone(), dir.join("work"));
    let file_s = file.to_string_lossy().into_owned();
    let mut out = Vec::new();
    match preprocess::load_unit(&pre, &file, &flags, None, &|_| false) {
        // The preprocessor's own messages, as the server publishes them.
        Err(preprocess::PreprocessError::Tool(m)) => {
            for m in preprocess::tool_messages(&m).into_iter().filter(|m| m.file == file_s) {
                let severity = if m.severity == Severity::Warning { "warning" } else { "error" };
                out.push(format!("{}: {severity}: {}", m.line, m.text));
            }
        }
        Err(e) => panic!("{}: cannot preprocess: {e}", case.name),
        Ok(change) => {
            let mut host = cufront_ide::AnalysisHost::new();
            host.apply_change(change);
            let diags = host.analysis().diagnostics(&file_s).unwrap_or_else(|_| panic!("{}: cancelled", case.name));
            for d in diags.iter().filter(|d| d.range.file == file_s) {
                let severity = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => continue,
                };
                // Files named in a message as nvcc was given them (the case
                // relative to its folder; the editor names files absolutely).
                let text = d.message.lines().next().unwrap_or("").replace(&format!("{}/", dir.display()), "");
                out.push(format!("{}: {severity}: {text}", d.range.start.line + 1));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    out.sort();
    // What both passes report is shown once.
    out.dedup();
    out.iter().map(|l| format!("{l}\n")).collect()
}

/// `known-diffs.txt`: (mode, case) → reason.
fn known_diffs() -> BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(diag_dir().join("known-diffs.txt")).unwrap_or_default();
    let mut map = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.splitn(3, ' ');
        let (mode, name, reason) = (words.next().unwrap(), words.next(), words.next());
        assert!(
            matches!(mode, "overlay" | "check" | "corpus" | "ide")
                && name.is_some()
                && reason.is_some_and(|r| !r.trim().is_empty()),
            "known-diffs.txt:{}: expected `overlay|check|corpus|ide CASE reason`",
            i + 1
        );
        map.insert((mode.to_string(), name.unwrap().to_string()), reason.unwrap().trim().to_string());
    }
    map
}

#[test]
fn diagnostics_match_nvcc() {
    let cases = cases();
    let filtered = std::env::var_os("CUFRONT_DIAG_CASES").is_some();
    assert!(filtered || cases.len() >= 150, "the suite keeps at least 150 cases ({} now)", cases.len());
    let known = known_diffs();
    for (mode, name) in known.keys().filter(|(mode, _)| mode != "corpus" && !filtered) {
        assert!(cases.iter().any(|c| &c.name == name), "known-diffs.txt names {mode} {name}, which is no case");
    }
    let overlay_dir = std::env::temp_dir().join(format!("cufront-diag-overlay-{}", std::process::id()));
    let built = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .args(["toolkit", "overlay"])
        .arg(&overlay_dir)
        .arg("--cuda-path")
        .arg(cufront_tests::toolkit().root())
        .output()
        .unwrap();
    assert!(built.status.success(), "cufront toolkit overlay: {}", String::from_utf8_lossy(&built.stderr));
    let cudafe = overlay_dir.join("bin/cudafe++");

    let results = cufront_tests::par_map(&cases, |case| {
        let real = real(case);
        let want = render(&real.steps);
        let got_overlay = render(&overlay(case, &real, &cudafe));
        let want_check = format!(
            "status: {}\n{}",
            nvcc_status(&real.steps),
            real.steps.iter().map(|s| s.stderr.as_str()).collect::<String>()
        );
        let (stderr, status) = check(case);
        let got_check = format!("status: {status}\n{stderr}");
        let want_ide = nvcc_file_diagnostics(case, &real.steps);
        let got_ide = ide(case);
        // A difference is shown with nvcc's output step by step (which pass said what).
        [
            ("overlay", want.clone(), got_overlay, want.clone()),
            ("check", want_check, got_check, want.clone()),
            ("ide", want_ide.clone(), got_ide, want_ide),
        ]
    });
    let _ = std::fs::remove_dir_all(&overlay_dir);

    let mut failures = Vec::new();
    let mut matched: BTreeMap<&str, usize> = BTreeMap::new();
    for (case, result) in cases.iter().zip(results) {
        let pairs = match result {
            Ok(p) => p,
            Err(panic) => {
                failures.push(format!("{}: {panic}", case.name));
                continue;
            }
        };
        for (mode, want, got, shown) in pairs {
            let same = want == got;
            *matched.entry(mode).or_default() += usize::from(same);
            match (same, known.contains_key(&(mode.to_string(), case.name.clone()))) {
                (true, true) => failures
                    .push(format!("{mode} {}: listed in known-diffs.txt but matches now: drop the line", case.name)),
                (false, false) => failures.push(format!(
                    "{mode} {} ({}) differs:\n=== nvcc\n{shown}=== cufront\n{got}",
                    case.name,
                    case.path.display()
                )),
                _ => {}
            }
        }
    }
    let n = cases.len();
    for (mode, m) in &matched {
        eprintln!("diag suite: {mode}: {m} of {n} cases match nvcc ({:.1}%)", 100.0 * *m as f64 / n as f64);
    }
    assert!(failures.is_empty(), "{} problems:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn check_matches_nvcc_on_the_corpus() {
    let cases: Vec<Case> = cufront_tests::corpus()
        .into_iter()
        .map(|p| {
            let mut flags = vec![format!("-std={}", p.stds[0].as_str())];
            flags.extend(p.flags.iter().cloned());
            let source = std::fs::read(&p.path).unwrap();
            Case { name: p.name.trim_end_matches(".cu").to_string(), path: p.path, flags, source }
        })
        .collect();
    let known = known_diffs();
    for (_, name) in known.keys().filter(|(mode, _)| mode == "corpus") {
        assert!(cases.iter().any(|c| &c.name == name), "known-diffs.txt names corpus {name}, which is no program");
    }
    let results = cufront_tests::par_map(&cases, |case| {
        let real = real(case);
        let want = format!(
            "status: {}\n{}",
            nvcc_status(&real.steps),
            real.steps.iter().map(|s| s.stderr.as_str()).collect::<String>()
        );
        let (stderr, status) = check(case);
        (want, format!("status: {status}\n{stderr}"), render(&real.steps))
    });
    let mut failures = Vec::new();
    let mut matched = 0;
    for (case, result) in cases.iter().zip(results) {
        let (want, got, shown) = match result {
            Ok(r) => r,
            Err(panic) => {
                failures.push(format!("{}: {panic}", case.name));
                continue;
            }
        };
        let same = want == got;
        matched += usize::from(same);
        match (same, known.contains_key(&("corpus".to_string(), case.name.clone()))) {
            (true, true) => {
                failures.push(format!("corpus {}: listed in known-diffs.txt but matches now: drop the line", case.name))
            }
            (false, false) => failures.push(format!(
                "corpus {} ({}) differs:\n=== nvcc\n{shown}=== cufront check\n{got}",
                case.name,
                case.flags.join(" ")
            )),
            _ => {}
        }
    }
    eprintln!("diag suite: corpus: {matched} of {} programs: check prints what nvcc prints", cases.len());
    assert!(failures.is_empty(), "{} problems:\n\n{}", failures.len(), failures.join("\n\n"));
}
