//! The cudafe++ mode parses declarations and then only the bodies it needs
//! (`cudafe/run.rs`, `emit::host::bodies`). For every corpus program, as
//! nvcc runs cudafe++ on it and again with `--device-c` (where host code
//! naming kernels and device variables matters), the host file, the module
//! id, the diagnostics and the exit status must be those of a run that
//! parses every body (`CUFRONT_ALL_BODIES=1`).

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::{Program, StepKind, corpus, host_ii, nvcc_pipeline, par_map};

/// What one run leaves: host file, module id, stdout+stderr, exit status.
#[derive(PartialEq, Eq)]
struct Run {
    host: String,
    module_id: String,
    output: String,
    status: Option<i32>,
}

fn value_of(args: &[String], flag: &str) -> Option<String> {
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1).cloned())
}

fn run(cwd: &Path, args: &[String], all_bodies: bool) -> Run {
    let host = PathBuf::from(value_of(args, "--gen_c_file_name").expect("nvcc names the host file"));
    let id = value_of(args, "--module_id_file_name").map(PathBuf::from);
    let _ = std::fs::remove_file(cwd.join(&host));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cufront"));
    cmd.arg("cudafe++").args(args).current_dir(cwd);
    if all_bodies {
        cmd.env("CUFRONT_ALL_BODIES", "1");
    } else {
        cmd.env_remove("CUFRONT_ALL_BODIES");
    }
    let out = cmd.output().expect("cufront runs");
    let mut run = Run {
        host: std::fs::read_to_string(cwd.join(&host)).unwrap_or_default(),
        module_id: id.and_then(|p| std::fs::read_to_string(cwd.join(p)).ok()).unwrap_or_default(),
        output: format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        status: out.status.code(),
    };
    // cudafe++'s fallback id (no eligible entity) is made of the time and
    // the process id: equal when both runs fall back.
    let id = run.module_id.trim_end().to_string();
    if is_fallback_id(&id) {
        // Static entities are named `__nv_static_<length of the id>_<id>`:
        // the length changes with the number of digits of the pid. Both
        // spellings go, also as the byte lists of the host-reference arrays.
        let prefixed = format!("__nv_static_{}_{id}", id.len());
        for (from, to) in [(prefixed.as_str(), "__nv_static_<n>_<fallback id>"), (id.as_str(), "<fallback id>")] {
            let bytes: Vec<String> = from.bytes().map(|b| format!("{b:#x}")).collect();
            run.host = run.host.replace(from, to).replace(&bytes.join(","), &format!("<bytes of {to}>"));
        }
        run.module_id = "<fallback id>".into();
    }
    run
}

/// `..._<crc of the time and directory>_<pid>`.
fn is_fallback_id(id: &str) -> bool {
    let mut parts = id.rsplit('_');
    let pid = parts.next().unwrap_or("");
    let crc = parts.next().unwrap_or("");
    pid.parse::<u32>().is_ok() && crc.len() == 8 && crc.bytes().all(|b| b.is_ascii_hexdigit())
}

fn check(program: &Program, work: &Path) -> Result<(), String> {
    let std = program.stds[0];
    let keep = work.join(program.name.trim_end_matches(".cu"));
    std::fs::create_dir_all(&keep).map_err(|e| e.to_string())?;
    let pipeline = nvcc_pipeline(program, std, &keep);
    let step = pipeline.step(StepKind::Cudafe).ok_or("no cudafe++ step")?;
    let args: Vec<String> = step.argv[1..].to_vec();
    let input = pipeline.cwd.join(args.last().ok_or("no input")?);
    std::fs::copy(host_ii(program, std), &input).map_err(|e| format!("cannot copy the .ii: {e}"))?;
    let mut device_c = args.clone();
    if !device_c.iter().any(|a| a == "--device-c") {
        device_c.insert(0, "--device-c".into());
    }
    for (mode, args) in [("", &args), (" --device-c", &device_c)] {
        let lazy = run(&pipeline.cwd, args, false);
        let full = run(&pipeline.cwd, args, true);
        if lazy.status != full.status || lazy.output != full.output {
            return Err(format!(
                "{}{mode}: diagnostics differ (exit {:?} vs {:?} with every body):\n{}\n--- with every body:\n{}",
                program.name, lazy.status, full.status, lazy.output, full.output
            ));
        }
        if lazy.module_id != full.module_id {
            return Err(format!(
                "{}{mode}: module ids differ: {:?} vs {:?}",
                program.name, lazy.module_id, full.module_id
            ));
        }
        if lazy.host != full.host {
            let line = lazy.host.lines().zip(full.host.lines()).take_while(|(a, b)| a == b).count() + 1;
            return Err(format!("{}{mode}: host files differ from line {line}", program.name));
        }
    }
    Ok(())
}

#[test]
fn needed_bodies_give_the_output_of_all_bodies() {
    let work = std::env::temp_dir().join(format!("cufront-lazy-bodies-{}", std::process::id()));
    let programs = corpus();
    assert!(!programs.is_empty(), "the corpus is empty");
    let results = par_map(&programs, |p| check(p, &work));
    let _ = std::fs::remove_dir_all(&work);
    let failures: Vec<String> = programs
        .iter()
        .zip(results)
        .filter_map(|(p, r)| match r {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(panic) => Some(format!("{}: {panic}", p.name)),
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} programs differ:\n{}", failures.len(), programs.len(), failures.join("\n"));
}
