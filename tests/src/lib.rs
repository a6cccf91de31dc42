//! cufront-tests: helpers shared by the end-to-end and differential tests.
//!
//! - [`toolkit`]: the pinned CUDA toolkit (found, or fetched once per machine),
//!   once per process.
//! - [`corpus`]: the CUDA programs under `tests/corpus/`, each with the
//!   standards and nvcc flags its first line declares:
//!   `// cufront-corpus: std=c++17,c++20 flags=--extended-lambda -DNDEBUG`
//!   (`flags=` runs to the end of the line, split on whitespace).
//! - [`host_ii`]: a program's host translation unit (what nvcc hands
//!   cudafe++), produced by the real toolchain at test time and cached.
//! - [`nvcc_pipeline`]: nvcc's own steps for a program (the real `cudafe++`
//!   and `cicc` command lines), for differential tests and benchmarks.
//! - [`cached_dir`]: a folder of generated files (e.g. a real build's
//!   outputs), made once and cached like the `.ii` files.
//! - [`limited`]: a command run under memory and time limits, with what it
//!   left behind (the robustness tests).
//!
//! Invariants:
//! - Generated `.ii` files (and other real tool outputs) live only under
//!   `target/cufront-test-cache/`;
//!   they hold NVIDIA and libstdc++ text and are never committed.
//! - A cache entry is keyed by a hash of everything that shapes it (source
//!   text and path, standard, arch, flags, toolkit version), and is written
//!   under a per-entry file lock and renamed into place: concurrent test
//!   processes never see a partial file and never produce it twice.
//! - Work spreads over [`jobs`] threads at most (the machines have 2 cores).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub mod limited;

pub use cufront_toolkit::{CompileOptions, Pipeline, Std, StepKind, Toolkit};

/// The repository root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// The pinned toolkit, found or fetched on first use (progress on stderr).
/// Panics with the reason when there is none: every caller needs it.
pub fn toolkit() -> &'static Toolkit {
    static TOOLKIT: OnceLock<Result<Toolkit, String>> = OnceLock::new();
    let found = TOOLKIT.get_or_init(|| {
        let opts = cufront_toolkit::Locate { require_pinned: true, ..Default::default() };
        cufront_toolkit::find_or_fetch(&opts).map_err(|e| e.to_string())
    });
    match found {
        Ok(tk) => tk,
        Err(e) => panic!("the tests need the CUDA {} toolkit: {e}", cufront_toolkit::PINNED.nvcc_version),
    }
}

/// One corpus program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// File name, e.g. `reduction.cu`.
    pub name: String,
    pub path: PathBuf,
    /// Standards the program is valid for.
    pub stds: Vec<Std>,
    /// Extra nvcc flags.
    pub flags: Vec<String>,
}

impl Program {
    /// nvcc options for compiling this program as `std`.
    pub fn options(&self, std: Std) -> CompileOptions {
        let mut opts = CompileOptions::new(std);
        opts.flags = self.flags.clone();
        opts
    }
}

/// The header line's tag.
pub const HEADER_TAG: &str = "// cufront-corpus:";

/// Parses a corpus header line into (standards, flags).
pub fn parse_header(line: &str) -> Result<(Vec<Std>, Vec<String>), String> {
    let rest = line.strip_prefix(HEADER_TAG).ok_or_else(|| format!("first line must start with `{HEADER_TAG}`"))?;
    let (fields, flags) = match rest.split_once("flags=") {
        Some((fields, flags)) => (fields, flags.split_whitespace().map(str::to_string).collect()),
        None => (rest, Vec::new()),
    };
    let mut stds = Vec::new();
    for field in fields.split_whitespace() {
        match field.split_once('=') {
            Some(("std", list)) => {
                for s in list.split(',') {
                    let std = Std::parse(s).ok_or_else(|| format!("unknown standard `{s}`"))?;
                    if !stds.contains(&std) {
                        stds.push(std);
                    }
                }
            }
            _ => return Err(format!("unknown header field `{field}`")),
        }
    }
    if stds.is_empty() {
        return Err("the header names no standard (`std=c++17,c++20`)".into());
    }
    Ok((stds, flags))
}

/// `tests/corpus/`.
pub fn corpus_dir() -> PathBuf {
    data_root().join("tests/corpus")
}

/// Where the corpus and the test cache are read: this workspace, or the
/// checkout `CUFRONT_TEST_DATA_ROOT` names, so that several work trees of
/// one repository share one cache (its keys hold the corpus paths).
fn data_root() -> PathBuf {
    std::env::var_os("CUFRONT_TEST_DATA_ROOT").map_or_else(workspace_root, PathBuf::from)
}

/// Every `.cu` program of the corpus, sorted by name. Panics on a program
/// with a malformed header (a broken corpus is a test failure).
pub fn corpus() -> Vec<Program> {
    let dir = corpus_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let (stds, flags) = parse_header(text.lines().next().unwrap_or(""))
                .unwrap_or_else(|e| panic!("{}: bad corpus header: {e}", path.display()));
            Program { name, path, stds, flags }
        })
        .collect()
}

/// Where generated inputs are cached.
pub fn cache_dir() -> PathBuf {
    data_root().join("target/cufront-test-cache")
}

/// The host `.ii` of `program` as `std` (nvcc's `x.cpp4.ii`), produced by
/// the real toolkit on first use and cached. Panics when preprocessing fails
/// (the corpus must compile with nvcc).
pub fn host_ii(program: &Program, std: Std) -> PathBuf {
    let tk = toolkit();
    let opts = program.options(std);
    let source = std::fs::read(&program.path).unwrap_or_else(|e| panic!("cannot read {}: {e}", program.path.display()));
    let key = cache_key(&[
        b"host-ii v1",
        tk.version().as_bytes(),
        program.path.to_string_lossy().as_bytes(),
        opts.nvcc_args().join("\0").as_bytes(),
        &source,
    ]);
    let dir = cache_dir();
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let stem = program.name.trim_end_matches(".cu");
    let out = dir.join(format!("{stem}.{}.{key:016x}.ii", std.as_str()));
    if out.is_file() {
        return out;
    }
    let lock_path = dir.join(format!("{stem}.{}.{key:016x}.lock", std.as_str()));
    let lock =
        std::fs::File::create(&lock_path).unwrap_or_else(|e| panic!("cannot create {}: {e}", lock_path.display()));
    lock.lock().unwrap_or_else(|e| panic!("cannot lock {}: {e}", lock_path.display()));
    if out.is_file() {
        return out; // another process made it while we waited
    }
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let work = dir.join(format!("{stem}.{}.work-{}-{thread}", std.as_str(), std::process::id()));
    let ii = tk.preprocess_host(&program.path, &opts, &work).unwrap_or_else(|e| panic!("{}: {e}", program.name));
    std::fs::rename(&ii, &out).unwrap_or_else(|e| panic!("cannot rename {} to {}: {e}", ii.display(), out.display()));
    let _ = std::fs::remove_dir_all(&work);
    out
}

/// A cached folder, `cache_dir()/NAME.KEY` (`key` from [`cache_key`] over
/// everything that shapes its contents), filled by `make` on first use:
/// `make` fills a fresh work folder, which is then renamed into place, under
/// the same per-entry lock as [`host_ii`] (concurrent test processes never
/// see a partial folder and never make it twice). When `make` fails,
/// nothing is cached and its error is returned.
pub fn cached_dir(name: &str, key: u64, make: impl FnOnce(&Path) -> Result<(), String>) -> Result<PathBuf, String> {
    let dir = cache_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let out = dir.join(format!("{name}.{key:016x}"));
    if out.is_dir() {
        return Ok(out);
    }
    let lock_path = dir.join(format!("{name}.{key:016x}.lock"));
    let lock = std::fs::File::create(&lock_path).map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock().map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if out.is_dir() {
        return Ok(out); // another process made it while we waited
    }
    // Under the lock, work folders of this entry are leftovers of killed
    // runs.
    let leftover = format!("{name}.{key:016x}.work-");
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(&leftover) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let work = dir.join(format!("{leftover}{}-{thread}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    match make(&work) {
        Ok(()) => {
            std::fs::rename(&work, &out)
                .map_err(|e| format!("cannot rename {} to {}: {e}", work.display(), out.display()))?;
            Ok(out)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&work);
            Err(e)
        }
    }
}

/// nvcc's pipeline for `program` as `std`, with intermediates kept in
/// `keep_dir` (nothing is run but `nvcc --dryrun`). Run a step with
/// `pipeline.run(StepKind::HostPreprocess)`, then `StepKind::Cudafe`, to get
/// the real `x.cudafe1.cpp` and `x.module_id` in `keep_dir`.
pub fn nvcc_pipeline(program: &Program, std: Std, keep_dir: &Path) -> Pipeline {
    toolkit()
        .dryrun(&program.path, &program.options(std), keep_dir)
        .unwrap_or_else(|e| panic!("{} ({}): {e}", program.name, std.as_str()))
}

/// FNV-1a over the parts, with a separator so `["ab","c"]` and `["a","bc"]`
/// differ.
pub fn cache_key(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// How many worker threads tests may use: 2 at most.
pub fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 2)
}

/// Maps `f` over `items` on [`jobs`] threads, keeping the order. A panic in
/// `f` is returned as that item's `Err` (its message), so one broken case
/// does not hide the others.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<Result<R, String>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<R, String>>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs().min(items.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(item))).map_err(|p| {
                        p.downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "panic".into())
                    });
                    *results[i].lock().unwrap() = Some(r);
                }
            });
        }
    });
    results.into_iter().map(|m| m.into_inner().unwrap().expect("every item was processed")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields() {
        let (stds, flags) = parse_header("// cufront-corpus: std=c++17,c++20 flags=--extended-lambda -DX=1").unwrap();
        assert_eq!(stds, [Std::Cxx17, Std::Cxx20]);
        assert_eq!(flags, ["--extended-lambda", "-DX=1"]);
        let (stds, flags) = parse_header("// cufront-corpus: std=c++20").unwrap();
        assert_eq!((stds, flags.len()), (vec![Std::Cxx20], 0));
        assert!(parse_header("// cufront-corpus: std=c++98").is_err());
        assert!(parse_header("// cufront-corpus: flags=-G").is_err());
        assert!(parse_header("// cufront-corpus: std=c++17 arch=sm_80").is_err());
        assert!(parse_header("#include <cstdio>").is_err());
    }

    #[test]
    fn cache_keys_separate_parts() {
        assert_ne!(cache_key(&[b"ab", b"c"]), cache_key(&[b"a", b"bc"]));
        assert_eq!(cache_key(&[b"x"]), cache_key(&[b"x"]));
    }

    #[test]
    fn par_map_keeps_order_and_reports_panics() {
        let items: Vec<u32> = (0..20).collect();
        let out = par_map(&items, |&i| {
            assert!(i != 7, "seven");
            i * 2
        });
        assert_eq!(out[3], Ok(6));
        assert!(out[7].as_ref().unwrap_err().contains("seven"));
        assert_eq!(out.iter().filter(|r| r.is_ok()).count(), 19);
    }

    /// The pipeline hands the real cudafe++ our host `.ii` path and nvcc's
    /// flags for the program.
    #[test]
    fn pipeline_names_the_real_cudafe() {
        let program = corpus().into_iter().find(|p| p.flags.iter().any(|f| f == "--extended-lambda")).unwrap();
        let dir = std::env::temp_dir().join(format!("cufront-tests-pipeline-{}", std::process::id()));
        let pipeline = nvcc_pipeline(&program, Std::Cxx17, &dir);
        let cudafe = pipeline.step(StepKind::Cudafe).expect("a cudafe++ step");
        assert_eq!(Path::new(&cudafe.argv[0]), toolkit().cudafe());
        assert!(cudafe.argv.iter().any(|a| a == "--extended-lambda"), "{:?}", cudafe.argv);
        assert_eq!(cudafe.argv.last().map(PathBuf::from), Some(pipeline.intermediate("cpp4.ii")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The corpus is what the project promises: at least 30 programs of real
    /// size, every header valid, C++20 covered.
    #[test]
    fn corpus_is_well_formed() {
        let programs = corpus();
        assert!(programs.len() >= 30, "only {} corpus programs", programs.len());
        for p in &programs {
            let lines = std::fs::read_to_string(&p.path).unwrap().lines().count();
            assert!((50..=300).contains(&lines), "{} has {lines} lines (50-300 expected)", p.name);
        }
        let cxx20_only = programs.iter().filter(|p| p.stds == [Std::Cxx20]).count();
        assert!(cxx20_only >= 3, "only {cxx20_only} C++20 programs");
    }
}
