//! The build daemon as a user runs it: the `cufront` binary, real sockets,
//! a daemon process started by `cufront daemon start` or by the first
//! `CUFRONT_DAEMON=1` client, each test with its own runtime directory
//! (`CUFRONT_DAEMON_DIR`).
//!
//! The contract checked: a cudafe++ run through the daemon gives the same
//! host file, module id file, stderr and exit status as the in-process run
//! (corpus units preprocessed by the real toolkit, with nvcc's own cudafe++
//! command lines, relative paths as nvcc passes them). A module id that
//! falls back to the process id holds the client's pid, so the two runs
//! are compared with each side's pid masked. `CUFRONT_DAEMON_DEBUG=1` makes
//! a silent fall back to in-process visible on stderr, so a daemon that did
//! not answer fails the comparison.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use cufront_tests::{StepKind, corpus, host_ii, nvcc_pipeline, par_map};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_cufront")
}

/// A daemon runtime directory of this test; the daemon is stopped on drop.
struct Daemon {
    dir: PathBuf,
}

impl Daemon {
    fn new(name: &str) -> Daemon {
        let dir = std::env::temp_dir().join(format!("cufront-dt-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Daemon { dir }
    }

    /// `cufront ARGS` with this daemon's settings (a safety idle exit).
    fn cufront(&self) -> Command {
        let mut c = Command::new(exe());
        c.env("CUFRONT_DAEMON_DIR", &self.dir)
            .env("CUFRONT_DAEMON_IDLE_SECS", "600")
            .env_remove("CUFRONT_DAEMON")
            .env_remove("CUFRONT_DAEMON_DEBUG")
            .stdin(Stdio::null());
        c
    }

    fn status(&self) -> (i32, String) {
        let out = self.cufront().args(["daemon", "status"]).output().unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// A field of the status line, e.g. `requests`.
    fn status_field(&self, after: &str) -> String {
        let (code, s) = self.status();
        assert_eq!(code, 0, "daemon not running: {s}");
        let words: Vec<&str> = s.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let i = words.iter().position(|w| *w == after).unwrap_or_else(|| panic!("no `{after}` in {s}"));
        words[i - 1].to_string()
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.cufront().args(["daemon", "stop"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What one cudafe++ run gives: exit status, stdout, stderr, and the
/// contents of the files it was asked to write.
#[derive(PartialEq, Eq)]
struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    files: Vec<(String, Option<String>)>,
}

/// Runs `cufront cudafe++ args` in `cwd` (through `daemon` when given),
/// collects `outputs` (relative to `cwd`) and removes them; the client's pid
/// is masked as `PID`.
fn cudafe(daemon: Option<&Daemon>, cwd: &Path, args: &[String], outputs: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = match daemon {
        Some(d) => {
            let mut c = d.cufront();
            c.env("CUFRONT_DAEMON", "1").env("CUFRONT_DAEMON_DEBUG", "1");
            c
        }
        None => {
            let mut c = Command::new(exe());
            c.env_remove("CUFRONT_DAEMON");
            c
        }
    };
    cmd.arg("cudafe++").args(args).current_dir(cwd).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().unwrap();
    let pid = child.id();
    if let Some(input) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let mask = |s: String| s.replace(&format!("_{pid}"), "_PID");
    let files = outputs
        .iter()
        .map(|f| {
            let p = cwd.join(f);
            let text = std::fs::read(&p).ok().map(|b| mask(String::from_utf8_lossy(&b).into_owned()));
            let _ = std::fs::remove_file(&p);
            (f.to_string(), text)
        })
        .collect();
    Run {
        status: out.status.code(),
        stdout: mask(String::from_utf8_lossy(&out.stdout).into_owned()),
        stderr: mask(String::from_utf8_lossy(&out.stderr).into_owned()),
        files,
    }
}

/// Files by length and hash: a failure message stays readable.
impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files: Vec<String> = self
            .files
            .iter()
            .map(|(n, t)| match t {
                Some(t) => format!("{n}: {} bytes, hash {:016x}", t.len(), cufront_tests::cache_key(&[t.as_bytes()])),
                None => format!("{n}: absent"),
            })
            .collect();
        f.debug_struct("Run")
            .field("status", &self.status)
            .field("stdout", &self.stdout.chars().take(2000).collect::<String>())
            .field("stderr", &self.stderr.chars().take(4000).collect::<String>())
            .field("files", &files)
            .finish()
    }
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-dw-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small unit with no entity for the module id: the id falls back to the
/// source's time, the working directory and the pid.
const FALLBACK_UNIT: &str = "# 1 \"t.cu\"\nstatic int f() { return 0; }\n";
const BAD_UNIT: &str = "# 1 \"e.cu\"\nint f( { return 0; }\n#pragma nv_diag_suppress 9999\n";
const SMALL_ARGS: &[&str] = &[
    "--c++17",
    "--gen_c_file_name",
    "out/t.cudafe1.cpp",
    "--stub_file_name",
    "t.stub.c",
    "--gen_module_id_file",
    "--module_id_file_name",
    "out/t.module_id",
];
const SMALL_OUTPUTS: &[&str] = &["out/t.cudafe1.cpp", "out/t.module_id"];

#[test]
fn start_status_stop() {
    let d = Daemon::new("life");
    assert_eq!(d.status().0, 3, "no daemon yet");
    let out = d.cufront().args(["daemon", "start", "--max-units", "3"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pid = d.status_field("socket");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&d.dir), 0o700);
    assert_eq!(mode(&d.dir.join("daemon.sock")), 0o600);
    assert!(d.status().1.contains("0/3 units"), "{}", d.status().1);
    // A second start finds it running.
    let out = d.cufront().args(["daemon", "start"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(d.status_field("socket"), pid);
    let out = d.cufront().args(["daemon", "stop"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(d.status().0, 3);
    assert!(!d.dir.join("daemon.sock").exists());
}

#[test]
fn small_units_client_cwd_pid_environment_and_stdin() {
    let d = Daemon::new("small");
    let work = scratch("small");
    std::fs::create_dir_all(work.join("out")).unwrap();
    std::fs::write(work.join("t.ii"), FALLBACK_UNIT).unwrap();
    std::fs::write(work.join("e.ii"), BAD_UNIT).unwrap();
    let mut a = args(SMALL_ARGS);
    a.push("t.ii".into());
    let local = cudafe(None, &work, &a, SMALL_OUTPUTS, None);
    assert_eq!(local.status, Some(0), "{local:?}");
    let id = local.files[1].1.as_deref().unwrap();
    assert!(id.ends_with("_PID"), "a fallback id with the client's pid: {id}");
    // Started by the first client; the daemon's own directory is `/`.
    let remote = cudafe(Some(&d), &work, &a, SMALL_OUTPUTS, None);
    assert_eq!(remote, local);
    assert_eq!(d.status_field("requests"), "1");
    // Diagnostics, pragma warnings and the exit status.
    let mut e = args(SMALL_ARGS);
    e.extend(args(&["--display_error_number", "e.ii"]));
    let local = cudafe(None, &work, &e, SMALL_OUTPUTS, None);
    assert_eq!(local.status, Some(2));
    assert_eq!(cudafe(Some(&d), &work, &e, SMALL_OUTPUTS, None), local);
    // Input from stdin runs in-process (the host file goes to stdout).
    let s = args(&["--c++17", "--stub_file_name", "t.stub.c", "-"]);
    let local = cudafe(None, &work, &s, &[], Some(FALLBACK_UNIT.as_bytes()));
    assert_eq!(cudafe(Some(&d), &work, &s, &[], Some(FALLBACK_UNIT.as_bytes())), local);
    // Command-line errors are answered by the client.
    let bad = args(&["--no-such-option", "t.ii"]);
    assert_eq!(cudafe(Some(&d), &work, &bad, &[], None), cudafe(None, &work, &bad, &[], None));
    assert_eq!(d.status_field("requests"), "2");
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn unreachable_daemon_runs_in_process() {
    // A runtime directory open to others is refused: the client runs the
    // compilation itself and says so only under CUFRONT_DAEMON_DEBUG.
    let d = Daemon::new("open");
    std::fs::create_dir_all(&d.dir).unwrap();
    std::fs::set_permissions(&d.dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let work = scratch("open");
    std::fs::create_dir_all(work.join("out")).unwrap();
    std::fs::write(work.join("t.ii"), FALLBACK_UNIT).unwrap();
    let mut a = args(SMALL_ARGS);
    a.push("t.ii".into());
    let local = cudafe(None, &work, &a, SMALL_OUTPUTS, None);
    let remote = cudafe(Some(&d), &work, &a, SMALL_OUTPUTS, None);
    assert!(remote.stderr.contains("running in-process") && remote.stderr.contains("mode 755"), "{}", remote.stderr);
    assert_eq!((remote.status, &remote.files), (local.status, &local.files));
    let quiet = d.cufront().env("CUFRONT_DAEMON", "1").arg("cudafe++").args(&a).current_dir(&work).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), local.stderr);
    assert!(!d.dir.join("daemon.sock").exists());
    let _ = std::fs::remove_dir_all(&work);
}

/// A corpus unit ready to run: its folder (with `STEM.cpp4.ii`), nvcc's
/// cudafe++ arguments relative to that folder, the outputs they name.
struct Unit {
    name: String,
    dir: PathBuf,
    args: Vec<String>,
    outputs: Vec<String>,
}

fn corpus_unit(program: &cufront_tests::Program, root: &Path) -> Unit {
    let std = program.stds[0];
    let dir = root.join(program.name.trim_end_matches(".cu"));
    std::fs::create_dir_all(&dir).unwrap();
    let pipeline = nvcc_pipeline(program, std, &dir);
    let step = pipeline.step(StepKind::Cudafe).expect("nvcc runs cudafe++");
    std::fs::copy(host_ii(program, std), pipeline.intermediate("cpp4.ii")).unwrap();
    // nvcc names the files under its keep folder: make them relative to it,
    // as in a build that runs in its build folder.
    let prefix = format!("{}/", dir.display());
    let args: Vec<String> = step.argv[1..].iter().map(|a| a.strip_prefix(&prefix).unwrap_or(a).to_string()).collect();
    let value = |opt: &str| args.iter().position(|a| a == opt).map(|i| args[i + 1].clone());
    let outputs = ["--gen_c_file_name", "--module_id_file_name"].iter().filter_map(|o| value(o)).collect();
    Unit { name: program.name.clone(), dir, args, outputs }
}

fn run_unit(d: Option<&Daemon>, u: &Unit) -> Run {
    let outs: Vec<&str> = u.outputs.iter().map(String::as_str).collect();
    cudafe(d, &u.dir, &u.args, &outs, None)
}

#[test]
fn corpus_units_are_the_same_through_the_daemon() {
    let d = Daemon::new("corpus");
    let root = scratch("corpus");
    let programs = corpus();
    let results = par_map(&programs, |p| {
        let u = corpus_unit(p, &root);
        let local = run_unit(None, &u);
        let remote = run_unit(Some(&d), &u);
        assert!(local.files.iter().all(|(_, f)| f.is_some()) || local.status != Some(0), "{}: {local:?}", u.name);
        (u.name, local == remote, local, remote)
    });
    let mut failures = Vec::new();
    for r in results {
        match r {
            Ok((_, true, ..)) => {}
            Ok((name, false, local, remote)) => failures.push(format!(
                "{name}: in-process {:?} / daemon {:?}\n{}\n---\n{}",
                local.status, remote.status, local.stderr, remote.stderr
            )),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(d.status_field("requests"), programs.len().to_string());
    let _ = std::fs::remove_dir_all(&root);
}

/// The largest corpus unit (by preprocessed size).
fn largest_unit(root: &Path) -> Unit {
    let programs = corpus();
    let p = programs.iter().max_by_key(|p| std::fs::metadata(host_ii(p, p.stds[0])).map_or(0, |m| m.len())).unwrap();
    corpus_unit(p, root)
}

/// Replaces the body of the first kernel defined in the user's file (the
/// last line marker before it names the `.cu`) with `body`.
fn edit_kernel_body(ii: &str, cu: &str, body: &str) -> String {
    let marker = format!("\"{cu}\"");
    let in_user_file = |at: usize| {
        let line_start = ii[..at].rfind("\n# ").map_or(0, |i| i + 1);
        ii[line_start..].lines().next().is_some_and(|l| l.contains(&marker))
    };
    let k = ii
        .match_indices("__attribute__((global))")
        .map(|(i, _)| i)
        .find(|&i| in_user_file(i) && ii[i..].find('{') < ii[i..].find(';'))
        .expect("a kernel defined in the unit");
    let open = k + ii[k..].find('{').unwrap();
    let mut depth = 0;
    let mut close = open;
    for (i, c) in ii[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    format!("{}{{ {body} }}{}", &ii[..open], &ii[close + 1..])
}

#[test]
fn edited_unit_is_rebuilt_from_its_cached_database() {
    let d = Daemon::new("edit");
    let root = scratch("edit");
    let u = largest_unit(&root);
    let ii_path = u.dir.join(u.args.last().unwrap());
    let original = std::fs::read_to_string(&ii_path).unwrap();
    let source = corpus().into_iter().find(|p| p.name == u.name).unwrap();
    let cu = source.path.display().to_string();
    let edits = [
        original.clone(),
        edit_kernel_body(&original, &cu, "int cufront_edit = 1; (void)cufront_edit;"),
        // A syntax error inside the body, then back to the original.
        edit_kernel_body(&original, &cu, "int cufront_edit = ;"),
        original.clone(),
    ];
    for (i, text) in edits.iter().enumerate() {
        std::fs::write(&ii_path, text).unwrap();
        let local = run_unit(None, &u);
        let remote = run_unit(Some(&d), &u);
        assert_eq!(remote, local, "edit {i}");
        if i == 2 {
            assert_eq!(local.status, Some(2), "{}", local.stderr);
        }
    }
    assert_eq!(d.status_field("requests"), "4");
    assert!(d.status().1.contains("1/8 units"), "{}", d.status().1);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn concurrent_clients_and_least_recently_used_eviction() {
    let d = Daemon::new("conc");
    let out = d.cufront().args(["daemon", "start", "--max-units", "4"]).output().unwrap();
    assert!(out.status.success());
    let root = scratch("conc");
    // Eight clients in their own folders, each with its own unit (two of
    // them with errors), 12 requests each.
    let expected: Vec<(PathBuf, Vec<String>, Run)> = (0..8)
        .map(|t| {
            let dir = root.join(format!("c{t}"));
            std::fs::create_dir_all(dir.join("out")).unwrap();
            let text = if t % 4 == 3 { BAD_UNIT.to_string() } else { FALLBACK_UNIT.replace("f()", &format!("f{t}()")) };
            std::fs::write(dir.join("t.ii"), text).unwrap();
            let mut a = args(SMALL_ARGS);
            a.push("t.ii".into());
            let local = cudafe(None, &dir, &a, SMALL_OUTPUTS, None);
            (dir, a, local)
        })
        .collect();
    std::thread::scope(|s| {
        for (dir, a, local) in &expected {
            let d = &d;
            s.spawn(move || {
                for i in 0..12 {
                    let remote = cudafe(Some(d), dir, a, SMALL_OUTPUTS, None);
                    // The fallback id holds the source's time: the same file.
                    assert_eq!(&remote, local, "{} request {i}", dir.display());
                }
            });
        }
    });
    assert_eq!(d.status_field("requests"), "96");
    assert!(d.status().1.contains("4/4 units"), "{}", d.status().1);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn killed_clients_leave_the_daemon_serving() {
    let d = Daemon::new("kill");
    let root = scratch("kill");
    let u = largest_unit(&root);
    let local = run_unit(None, &u);
    for delay_ms in [30, 150, 400] {
        let mut c = d.cufront();
        c.env("CUFRONT_DAEMON", "1").arg("cudafe++").args(&u.args).current_dir(&u.dir);
        let mut child = c.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        let _ = child.wait();
    }
    assert_eq!(d.status().0, 0, "the daemon survives");
    // Runs whose client was killed write nothing (as a killed cudafe++):
    // `stop` waits for them to end.
    let out = d.cufront().args(["daemon", "stop"]).output().unwrap();
    assert!(out.status.success());
    for f in &u.outputs {
        assert!(!u.dir.join(f).exists(), "{f} written for a killed client");
    }
    // The next client starts a daemon again and gets the right answer.
    assert_eq!(run_unit(Some(&d), &u), local);
    let _ = std::fs::remove_dir_all(&root);
}
