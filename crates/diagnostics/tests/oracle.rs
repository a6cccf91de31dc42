//! Differential tests against the real cudafe++ 13.0 (the oracle).
//!
//! Pragma syntax warnings (1222, 1223, 1224, 253, 3184, 3185) are produced by
//! this crate alone, and they are themselves discretionary diagnostics under
//! the control of options and earlier pragmas. So a translation unit made of
//! `#pragma nv_diag*` lines exercises pragma parsing, the pragma timeline
//! (push/pop, default, once), option overrides, filters, the hint remark, the
//! text layout, the trailer and the exit status end to end, with nothing
//! from the parser. The same holds for `--diag_*` list errors.
//!
//! Inputs are written here; nothing from the toolkit is committed. The pinned
//! toolkit is fetched into the user cache on first use; a test never skips.

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_diagnostics::*;

fn cudafe() -> PathBuf {
    let locate = cufront_toolkit::Locate { require_pinned: true, ..Default::default() };
    match cufront_toolkit::find_or_fetch(&locate) {
        Ok(tk) => tk.cudafe(),
        Err(e) => panic!("the pinned CUDA toolkit is needed by the oracle tests: {e}"),
    }
}

/// A fresh folder per call: the tests of this file run in parallel.
fn scratch() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("cufront-diag-oracle-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs cudafe++ on `text` (as `p.ii` in a scratch folder) with `flags`.
fn run_real(cudafe: &Path, dir: &Path, text: &str, flags: &[&str]) -> (String, i32) {
    std::fs::write(dir.join("p.ii"), text).unwrap();
    let out = Command::new(cudafe)
        .current_dir(dir)
        .args(["--c++17", "--gnu_version=120200", "--parse_templates", "--gen_c_file_name"])
        .arg(dir.join("p.cpp"))
        .args(["--stub_file_name", "p.stub.c"])
        .args(flags)
        .arg("p.ii")
        .output()
        .unwrap();
    (String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

/// What cufront does with the same input: the flags the test uses, mapped by
/// hand (the real option parser lives in the `cufront` binary).
fn run_ours(text: &str, flags: &[&str], cwd: &Path) -> (String, i32) {
    let cwd = cwd.to_str().unwrap().to_owned();
    let mut opts = EngineOptions { source_name: Some("p.ii".into()), cwd, ..EngineOptions::default() };
    let mut cl_error = None;
    for flag in flags {
        let (name, value) = flag.trim_start_matches('-').split_once('=').unwrap_or((flag.trim_start_matches('-'), ""));
        match name {
            "display_error_number" => opts.text.display_error_number = true,
            "brief_diagnostics" => opts.text.brief = true,
            "wrap_diagnostics" => opts.text.wrap = true,
            "remarks" => opts.remarks = true,
            "w" | "no_warnings" => opts.no_warnings = true,
            "promote_warnings" => opts.promote_warnings = true,
            "error_limit" => opts.error_limit = value.parse().unwrap(),
            "output_mode" => opts.mode = OutputMode::from_option(value).unwrap(),
            _ => {
                let action = name.strip_prefix("diag_").and_then(Action::from_word).expect(flag);
                match parse_diag_list(value) {
                    Ok(ids) => opts.overrides.apply(action, &ids),
                    Err(e) => {
                        cl_error.get_or_insert(e);
                    }
                }
            }
        }
    }
    if let Some(e) = cl_error {
        let mut engine = DiagnosticEngine::new(EngineOptions { source_name: None, ..opts }, Vec::new());
        engine.emit(&Diagnostic::command_line_error(e.id(), vec![Arg::Str(e.item().to_owned())]));
        let (o, out) = engine.finish();
        return (String::from_utf8(out).unwrap(), o.exit_code);
    }

    let (timeline, found) = scan_pragmas(text);
    let problems: Vec<Diagnostic> = found
        .into_iter()
        .map(|(offset, id)| {
            let line_start = text[..offset as usize].rfind('\n').map_or(0, |i| i + 1);
            let line_no = text[..line_start].matches('\n').count() as u32 + 1;
            let line = text[line_start..].lines().next().unwrap_or("");
            let column = offset - line_start as u32 + 1;
            let loc = Location::new("p.ii", line_no, column).with_source_line(line).with_offset(offset);
            Diagnostic::new(id, Severity::Warning).at(loc)
        })
        .collect();
    let mut engine = DiagnosticEngine::new(opts, Vec::new());
    engine.set_pragmas(timeline);
    for d in &problems {
        if engine.emit(d) == Flow::Stop {
            break;
        }
    }
    let (o, out) = engine.finish();
    (String::from_utf8(out).unwrap(), o.exit_code)
}

fn compare(cases: &[(&str, &[&str])]) {
    let cudafe = cudafe();
    let dir = scratch();
    let mut failures = Vec::new();
    for (text, flags) in cases {
        let mut real = run_real(&cudafe, &dir, text, flags);
        if flags.contains(&"--output_mode=sarif") {
            // cudafe++'s SARIF defects (spec 60 §8.4), which we do not copy:
            // missing commas between results, `Error limit reached.` inside.
            real.0 = real.0.replace("}{\"ruleId\"", "},{\"ruleId\"").replace("Error limit reached.\n", "");
        }
        let ours = run_ours(text, flags, &dir);
        if real != ours {
            failures.push(format!(
                "flags {flags:?}\ninput:\n{text}\n--- cudafe++ (exit {}):\n{}\n--- cufront (exit {}):\n{}",
                real.1, real.0, ours.1, ours.0
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} of {} cases differ:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

const N: &[&str] = &["--display_error_number"];

#[test]
fn pragma_syntax_warnings() {
    let lines = [
        "#pragma nv_diag_suppress 99999",
        "#pragma nv_diag_suppress bogus_tag",
        "#pragma nv_diag_suppress 940 177",
        "#pragma nv_diagnostic",
        "#pragma nv_diagnostic pop",
        "#pragma nv_diagnostic bogus",
        "#pragma nv_diag_warning (940)",
        "#pragma nv_diag_warning \"940\"",
        "#pragma nv_diag_suppress 99999, 940",
        "#pragma nv_diag_suppress (940), 940",
        "#pragma   nv_diag_remark   implicit_return_from_non_void_function   ",
        "#pragma nv_diag_suppress 0",
        "#pragma nv_diag_error 3795, 20338, 19999",
        "#pragma diag_suppress 99999",
        "#pragma nv_diagnostic push extra",
    ];
    let text = lines.join("\n") + "\nint x;\n";
    compare(&[
        (&text, N),
        (&text, &[]),
        (&text, &["--display_error_number", "--brief_diagnostics"]),
        (&text, &["--display_error_number", "--wrap_diagnostics"]),
        // The trailing-comma form is last: an empty item followed by another
        // nv_diag pragma crashes cudafe++ (spec 60 §3.3).
        ("int x;\n#pragma nv_diag_warning 940,\n", N),
        ("#pragma nv_diag_suppress\nint x;\n", N),
    ]);
}

#[test]
fn pragma_control_of_pragma_warnings() {
    let text = "\
#pragma nv_diagnostic push
#pragma nv_diag_error 1222
#pragma nv_diag_suppress 99999
#pragma nv_diagnostic push
#pragma nv_diag_suppress invalid_error_number
#pragma nv_diag_suppress 99998
#pragma nv_diagnostic pop
#pragma nv_diag_suppress 99997
#pragma nv_diagnostic pop
#pragma nv_diag_suppress 99996
#pragma nv_diag_remark 1222
#pragma nv_diag_suppress 99995
#pragma nv_diag_default 1222
#pragma nv_diag_suppress 99994
#pragma nv_diag_once 1223
#pragma nv_diag_suppress bogus1
#pragma nv_diag_suppress bogus2
#pragma nv_diag_warning 1223
#pragma nv_diag_suppress bogus3
#pragma nv_diagnostic pop
int x;
";
    compare(&[
        (text, N),
        (text, &["--display_error_number", "--remarks"]),
        (text, &["--display_error_number", "--diag_error=1222"]),
        (text, &["--display_error_number", "--diag_suppress=invalid_error_number,1223"]),
        (text, &["--display_error_number", "--diag_error=1222", "--diag_warning=1222"]),
        (text, &["--display_error_number", "--diag_once=1222"]),
        (text, &["--display_error_number", "--promote_warnings"]),
        (text, &["--display_error_number", "-w"]),
        (text, &["--display_error_number", "--diag_error=1222,1223", "--error_limit=2"]),
        (text, &["--display_error_number", "--diag_remark=1222", "--remarks"]),
        (text, &["--display_error_number", "--output_mode=sarif"]),
        (text, &["--display_error_number", "--output_mode=sarif", "--remarks", "--error_limit=1"]),
        ("int x;\n", &["--output_mode=sarif"]),
        // The hint remark obeys overrides (at the first warning's position).
        (text, &["--display_error_number", "--diag_suppress=20252"]),
        (text, &["--display_error_number", "--diag_error=3709"]),
        (text, &["--display_error_number", "--diag_warning=supress_warning"]),
        ("#pragma nv_diag_suppress 20252\n#pragma nv_diag_suppress 99999\n", N),
        ("#pragma nv_diag_error 20252\n#pragma nv_diag_suppress 99999\n", N),
        ("#pragma nv_diag_suppress 99999\n#pragma nv_diag_suppress 20252\n#pragma nv_diag_suppress 99998\n", N),
    ]);
}

#[test]
fn option_list_errors() {
    let text = "int x;\n";
    let mut cases: Vec<(&str, Vec<String>)> = Vec::new();
    for v in [
        "940,",
        "0",
        "12abc",
        "3456",
        "1507",
        "20003",
        "19999",
        "3795",
        "20338",
        "-1",
        "+940",
        "0x3ac",
        "00940",
        "940 , 177",
        "Implicit_return_from_non_void_function",
        "99999999999999999999",
        "177,,940",
        "device_var_read_in_host",
    ] {
        cases.push((text, vec!["--display_error_number".into(), format!("--diag_suppress={v}")]));
        cases.push((text, vec![format!("--diag_error={v}")]));
    }
    let borrowed: Vec<Vec<&str>> = cases.iter().map(|(_, f)| f.iter().map(String::as_str).collect()).collect();
    let cases: Vec<(&str, &[&str])> = borrowed.iter().map(|f| (text, f.as_slice())).collect();
    compare(&cases);
}
