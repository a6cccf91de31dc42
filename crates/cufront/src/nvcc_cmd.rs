//! `cufront nvcc ARGS…`: nvcc with cufront as its cudafe++.
//!
//! The real toolkit's nvcc runs its own pipeline, unchanged, from an overlay
//! toolkit directory whose `bin/cudafe++` is this executable (`overlay.rs`;
//! one per build of cufront and toolkit, kept under the cache directory), so
//! the outputs and exit statuses are nvcc's. On top:
//!
//! - `-j N` / `--jobs N`: when the command only compiles (`-c`, no `-o`)
//!   several source files, one nvcc per file, N at a time (default: the
//!   number of processors); their output is printed per file as each ends,
//!   and the exit status is the first failing file's (in command-line
//!   order). nvcc stops at its first failing file; here no file is started
//!   after a failure, but files already compiling in parallel finish (their
//!   objects exist where nvcc would not have made them). Other commands run
//!   as one nvcc.
//! - a progress line (`[done/total] file`) on stderr when it is a terminal.
//! - `--compile-commands FILE`: adds (or replaces) an entry per source file
//!   in the JSON compilation database FILE, under a lock.
//! - `--daemon`: sets `CUFRONT_DAEMON=1` for the cudafe++ runs.
//! - `--cuda-path DIR`: the toolkit (default: as `cufront toolkit path`).
//!
//! Source files are the arguments with a C/C++/CUDA extension that are not
//! the value of an option that takes a file (`-o`, `-include`, `-MF`, …).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;

const SOURCE_EXTS: &[&str] = &["cu", "c", "cc", "cpp", "cxx", "C", "c++"];

/// nvcc options whose next argument is a value that may look like a file.
const VALUE_OPTS: &[&str] = &[
    "-o",
    "--output-file",
    "-include",
    "--pre-include",
    "-MF",
    "--dependency-output",
    "-MT",
    "--dependency-target-name",
    "-Xcompiler",
    "--compiler-options",
    "-Xlinker",
    "--linker-options",
    "-Xcudafe",
    "-Xptxas",
    "--ptxas-options",
    "-Xnvlink",
    "--nvlink-options",
    "-Xarchive",
    "--archive-options",
    "-odir",
    "--output-directory",
    "-ccbin",
    "--compiler-bindir",
    "-x",
    "--x",
    "-I",
    "-isystem",
    "-L",
    "-l",
    "-D",
    "-U",
    "--keep-dir",
    "-keep-dir",
];

/// What `cufront nvcc` takes for itself; the rest goes to nvcc.
#[derive(Debug, Default, PartialEq, Eq)]
struct Options {
    jobs: Option<usize>,
    compile_commands: Option<PathBuf>,
    daemon: bool,
    cuda_path: Option<PathBuf>,
    nvcc: Vec<String>,
}

fn split_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        if a == "-j" || a == "--jobs" {
            let v = value(a)?;
            o.jobs = Some(v.parse().map_err(|_| format!("bad job count `{v}`"))?);
        } else if let Some(v) = a.strip_prefix("-j").or_else(|| a.strip_prefix("--jobs=")) {
            o.jobs = Some(v.parse().map_err(|_| format!("bad job count `{v}`"))?);
        } else if a == "--compile-commands" {
            o.compile_commands = Some(PathBuf::from(value(a)?));
        } else if let Some(v) = a.strip_prefix("--compile-commands=") {
            o.compile_commands = Some(PathBuf::from(v));
        } else if a == "--cuda-path" {
            o.cuda_path = Some(PathBuf::from(value(a)?));
        } else if let Some(v) = a.strip_prefix("--cuda-path=") {
            o.cuda_path = Some(PathBuf::from(v));
        } else if a == "--daemon" {
            o.daemon = true;
        } else {
            o.nvcc.push(a.clone());
        }
    }
    Ok(o)
}

/// The indices of the source files in nvcc's arguments.
fn sources(args: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut skip = false;
    for (i, a) in args.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if a.starts_with('-') {
            skip = VALUE_OPTS.contains(&a.as_str());
            continue;
        }
        let ext = Path::new(a).extension().and_then(|e| e.to_str());
        if ext.is_some_and(|e| SOURCE_EXTS.contains(&e)) {
            out.push(i);
        }
    }
    out
}

fn compiles_only(args: &[String]) -> bool {
    let compile = args.iter().any(|a| a == "-c" || a == "--compile");
    let output = args.iter().any(|a| a == "-o" || a == "--output-file" || a.starts_with("--output-file="));
    compile && !output
}

pub fn run(args: &[String]) -> ExitCode {
    match try_run(args) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("cufront nvcc: {e}");
            ExitCode::from(2)
        }
    }
}

fn try_run(args: &[String]) -> Result<i32, String> {
    let opts = split_options(args)?;
    let tk =
        cufront_toolkit::find(&cufront_toolkit::Locate { cuda_path: opts.cuda_path.clone(), require_pinned: false })
            .map_err(|e| e.to_string())?;
    let nvcc = overlay_for(tk.root())?;
    let srcs = sources(&opts.nvcc);
    let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
    if let Some(db) = &opts.compile_commands {
        let entries: Vec<_> = srcs
            .iter()
            .map(|&i| {
                let mut arguments = vec![tk.nvcc().display().to_string()];
                arguments.extend(
                    opts.nvcc.iter().enumerate().filter(|(j, _)| !srcs.contains(j) || *j == i).map(|(_, a)| a.clone()),
                );
                (cwd.join(&opts.nvcc[i]), arguments)
            })
            .collect();
        append_compile_commands(db, &cwd, &entries)?;
    }
    // One job per source file when that is what nvcc would do file by file.
    let jobs: Vec<Vec<String>> = if srcs.len() > 1 && compiles_only(&opts.nvcc) {
        srcs.iter()
            .map(|&i| {
                opts.nvcc
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| !srcs.contains(j) || *j == i)
                    .map(|(_, a)| a.clone())
                    .collect()
            })
            .collect()
    } else {
        vec![opts.nvcc.clone()]
    };
    let labels: Vec<String> = if jobs.len() > 1 {
        srcs.iter().map(|&i| opts.nvcc[i].clone()).collect()
    } else {
        vec![srcs.first().map_or_else(|| "nvcc".to_string(), |&i| opts.nvcc[i].clone())]
    };
    let command = |job: &[String]| {
        let mut c = Command::new(&nvcc);
        c.args(job);
        if opts.daemon {
            c.env("CUFRONT_DAEMON", "1");
        }
        c
    };
    if jobs.len() == 1 {
        // One nvcc, with this process's stdio: exactly nvcc's behaviour.
        let status = command(&jobs[0]).status().map_err(|e| format!("cannot run {}: {e}", nvcc.display()))?;
        return Ok(exit_status(status));
    }
    let parallel = opts.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let progress = std::io::stderr().is_terminal();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failed = std::sync::atomic::AtomicBool::new(false);
    let done = Mutex::new(0usize);
    let statuses: Vec<Mutex<Option<i32>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..parallel.min(jobs.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    if failed.load(std::sync::atomic::Ordering::SeqCst) {
                        break;
                    }
                    let (code, out, err) = match command(job).output() {
                        Ok(o) => (exit_status(o.status), o.stdout, o.stderr),
                        Err(e) => (2, Vec::new(), format!("cufront nvcc: cannot run nvcc: {e}\n").into_bytes()),
                    };
                    *statuses[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(code);
                    if code != 0 {
                        failed.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                    let mut n = done.lock().unwrap_or_else(|p| p.into_inner());
                    *n += 1;
                    // Under the lock: one file's output at a time.
                    let mut e = std::io::stderr().lock();
                    if progress {
                        let _ = write!(e, "\r\x1b[K");
                    }
                    let _ = std::io::stdout().lock().write_all(&out);
                    let _ = e.write_all(&err);
                    if progress {
                        let _ = write!(e, "[{}/{}] {}", *n, jobs.len(), labels[i]);
                    }
                    let _ = e.flush();
                }
            });
        }
    });
    if progress {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    // Files not started (after a failure) have no status.
    let mut codes = statuses.into_iter().filter_map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()));
    Ok(codes.find(|&c| c != 0).unwrap_or(0))
}

fn exit_status(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

/// The overlay toolkit for `real` and this executable (built once, into a
/// fresh folder renamed into place, so concurrent runs never see half of it).
fn overlay_for(real: &Path) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the cufront executable: {e}"))?;
    let exe = exe.canonicalize().map_err(|e| format!("cannot resolve {}: {e}", exe.display()))?;
    // Keyed by the executable's path, not its build: the overlay links to
    // the path, so a rebuilt cufront in place is picked up as it is.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in exe.display().to_string().bytes().chain([0]).chain(real.display().to_string().bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let base = cufront_toolkit::fetch::cache_root().map_err(|e| e.to_string())?.join("overlays");
    let dir = base.join(format!("{h:016x}"));
    let nvcc = dir.join("bin/nvcc");
    if nvcc.is_file() && std::fs::read_link(dir.join("bin/cudafe++")).is_ok_and(|l| l == exe) {
        return Ok(nvcc);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let work = base.join(format!(".{h:016x}.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    crate::overlay::build(real, &work, &exe)?;
    match std::fs::rename(&work, &dir) {
        Ok(()) => {}
        // Another run made it first.
        Err(_) if nvcc.is_file() => {
            let _ = std::fs::remove_dir_all(&work);
        }
        Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
    }
    Ok(nvcc)
}

/// Adds the entries (file, arguments) to the compilation database `db`,
/// replacing those for the same directory and file; a missing file is an
/// empty database.
fn append_compile_commands(db: &Path, cwd: &Path, entries: &[(PathBuf, Vec<String>)]) -> Result<(), String> {
    use serde_json::{Value, json};
    let db = cwd.join(db);
    let io = |what: &str, e: std::io::Error| format!("cannot {what} {}: {e}", db.display());
    let lock_path = db.with_extension("json.lock");
    let lock = std::fs::File::create(&lock_path).map_err(|e| io("lock", e))?;
    lock.lock().map_err(|e| io("lock", e))?;
    let mut list: Vec<Value> = match std::fs::read_to_string(&db) {
        Ok(text) if !text.trim().is_empty() => {
            serde_json::from_str(&text).map_err(|e| format!("{} is not a JSON array: {e}", db.display()))?
        }
        Ok(_) => Vec::new(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(io("read", e)),
    };
    let directory = cwd.display().to_string();
    for (file, arguments) in entries {
        let file = file.display().to_string();
        list.retain(|v| !(v["directory"] == directory.as_str() && v["file"] == file.as_str()));
        list.push(json!({ "directory": directory, "file": file, "arguments": arguments }));
    }
    let text = serde_json::to_string_pretty(&list).map_err(|e| e.to_string())? + "\n";
    let tmp = db.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| io("write", e))?;
    std::fs::rename(&tmp, &db).map_err(|e| io("write", e))?;
    let _ = std::fs::remove_file(&lock_path);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn own_options_and_sources() {
        let o = split_options(&s(&[
            "-j",
            "3",
            "--daemon",
            "-c",
            "a.cu",
            "-o",
            "x.cu",
            "--compile-commands=cc.json",
            "b.cpp",
            "-include",
            "h.c",
        ]))
        .unwrap();
        assert_eq!(o.jobs, Some(3));
        assert!(o.daemon);
        assert_eq!(o.compile_commands.as_deref(), Some(Path::new("cc.json")));
        assert_eq!(o.nvcc, s(&["-c", "a.cu", "-o", "x.cu", "b.cpp", "-include", "h.c"]));
        let srcs: Vec<&str> = sources(&o.nvcc).iter().map(|&i| o.nvcc[i].as_str()).collect();
        assert_eq!(srcs, ["a.cu", "b.cpp"]);
        assert!(!compiles_only(&o.nvcc));
        assert!(compiles_only(&s(&["-c", "a.cu", "b.cu"])));
        assert!(split_options(&s(&["-j"])).is_err());
    }
}
