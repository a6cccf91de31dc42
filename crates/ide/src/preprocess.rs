//! Host preprocessing exactly as nvcc runs it (`cufront_toolkit`'s
//! pipeline, read off `nvcc --dryrun`), for a file on disk or an editor
//! buffer that differs from it.
//!
//! A buffer is written to a private folder under its own file name and
//! preprocessed with `-iquote <its real folder>` (so `#include "x.h"`
//! finds what it would), and the markers that name the copy are renamed
//! to the real path. The macros defined at the end (`-dM`) are listed
//! too: an edit that uses none of them can be patched into the unit
//! without the preprocessor ([`crate::patch`]).
//!
//! This module does I/O and runs processes; the analysis never calls it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use cufront_base_db::{LangOptions, LangStandard};
use cufront_diagnostics::ShownFlags;
use cufront_toolkit::{CompileOptions, Pipeline, Std, StepKind, Toolkit};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::workspace::FileFlags;

/// What preprocessing a file gives.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    /// The unit (`.cpp4.ii`), markers naming the real file.
    pub text: String,
    pub macros: FxHashSet<String>,
    /// What the compiler printed (its warnings: nvcc shows them).
    pub messages: String,
}

/// A compiler message `FILE:LINE:COL: [fatal ]error|warning: TEXT` (gcc's
/// form), lines and columns 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolMessage {
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// `Error` or `Warning`.
    pub severity: crate::Severity,
    pub text: String,
}

/// The errors and warnings of a preprocessor's output that have a position.
pub fn tool_messages(output: &str) -> Vec<ToolMessage> {
    use crate::Severity;
    let mut out = Vec::new();
    for l in output.lines() {
        let split =
            [(": fatal error: ", Severity::Error), (": error: ", Severity::Error), (": warning: ", Severity::Warning)]
                .into_iter()
                .find_map(|(kind, severity)| l.split_once(kind).map(|(head, text)| (head, severity, text)));
        let Some((head, severity, text)) = split else {
            continue;
        };
        let mut parts = head.rsplitn(3, ':');
        let (Some(col), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(line), Ok(col)) = (line.parse(), col.parse()) else {
            continue;
        };
        out.push(ToolMessage { file: file.to_string(), line, col, severity, text: text.to_string() });
    }
    out
}

/// Why a file could not be preprocessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreprocessError {
    /// nvcc or the host compiler failed (their message: e.g. a missing header).
    Tool(String),
    Io(String),
}

impl std::fmt::Display for PreprocessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PreprocessError::Tool(m) | PreprocessError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl From<cufront_toolkit::Error> for PreprocessError {
    fn from(e: cufront_toolkit::Error) -> Self {
        PreprocessError::Tool(e.to_string())
    }
}

/// Which of nvcc's two preprocessings: the host's (read by cudafe++) or the
/// device's (`__CUDA_ARCH__` defined, read by cicc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    Host,
    Device,
}

/// Runs nvcc's preprocessing steps; remembers each file's pipeline.
pub struct Preprocessor {
    toolkit: Toolkit,
    work: PathBuf,
    pipelines: Mutex<FxHashMap<(PathBuf, CompileOptions), Pipeline>>,
    runs: AtomicU64,
}

impl Preprocessor {
    /// `work` is a private folder for intermediate files (created).
    pub fn new(toolkit: Toolkit, work: PathBuf) -> Preprocessor {
        Preprocessor { toolkit, work, pipelines: Mutex::default(), runs: AtomicU64::new(0) }
    }

    pub fn toolkit(&self) -> &Toolkit {
        &self.toolkit
    }

    fn pipeline(&self, file: &Path, opts: &CompileOptions) -> Result<Pipeline, PreprocessError> {
        let key = (file.to_path_buf(), opts.clone());
        if let Some(p) = self.pipelines.lock().map_err(|_| PreprocessError::Io("poisoned".into()))?.get(&key) {
            return Ok(p.clone());
        }
        let n = self.runs.fetch_add(1, Ordering::Relaxed);
        let keep = self.work.join(format!("p{n}"));
        let p = self.toolkit.dryrun(file, opts, &keep)?;
        if let Ok(mut map) = self.pipelines.lock() {
            map.insert(key, p.clone());
        }
        Ok(p)
    }

    /// What the command line nvcc gives the front ends for `file` says
    /// about which diagnostics are shown (`--diag_*`, `-w`, …: the same for
    /// cudafe++ and cicc).
    pub fn shown_flags(&self, file: &Path, flags: &FileFlags) -> Result<ShownFlags, PreprocessError> {
        Ok(ShownFlags::from_args(&self.front_end_args(file, flags)?))
    }

    /// What the command line nvcc gives the front ends for `file` tells
    /// the checks (relaxed constexpr, extended lambdas, whole-program or
    /// separate compilation), however the nvcc flags spelled it.
    pub fn check_options(&self, file: &Path, flags: &FileFlags) -> Result<cufront_check::Options, PreprocessError> {
        Ok(cufront_check::Options::from_front_end_args(&self.front_end_args(file, flags)?))
    }

    /// cudafe++'s arguments in nvcc's pipeline for `file` (none without one).
    fn front_end_args(&self, file: &Path, flags: &FileFlags) -> Result<Vec<String>, PreprocessError> {
        let pipeline = self.pipeline(file, &absolute_flags(&flags.options, &flags.directory))?;
        Ok(pipeline.step(StepKind::Cudafe).map(|s| s.argv.clone()).unwrap_or_default())
    }

    /// Preprocesses `file` (absolute) with `flags` for the host; `buffer`
    /// replaces its contents on disk when given.
    pub fn preprocess(
        &self,
        file: &Path,
        flags: &FileFlags,
        buffer: Option<&str>,
    ) -> Result<Preprocessed, PreprocessError> {
        self.preprocess_view(file, flags, buffer, View::Host)?
            .ok_or_else(|| PreprocessError::Tool("nvcc's pipeline has no host preprocessing step".into()))
    }

    /// Preprocesses `file` for `view`: the host's step, or the first device
    /// preprocessing (the one whose cicc nvcc runs first; `None` when the
    /// pipeline has none, e.g. with no device architecture).
    pub fn preprocess_view(
        &self,
        file: &Path,
        flags: &FileFlags,
        buffer: Option<&str>,
        view: View,
    ) -> Result<Option<Preprocessed>, PreprocessError> {
        let opts = absolute_flags(&flags.options, &flags.directory);
        let pipeline = self.pipeline(file, &opts)?;
        let kind = match view {
            View::Host => StepKind::HostPreprocess,
            View::Device => StepKind::DevicePreprocess,
        };
        let Some(step) = pipeline.step(kind) else {
            return Ok(None);
        };
        let n = self.runs.fetch_add(1, Ordering::Relaxed);
        let run_dir = self.work.join(format!("r{n}"));
        std::fs::create_dir_all(&run_dir)
            .map_err(|e| PreprocessError::Io(format!("cannot create {}: {e}", run_dir.display())))?;
        let result = self.run_step(&pipeline, &step.argv, file, buffer, &run_dir);
        let _ = std::fs::remove_dir_all(&run_dir);
        result.map(Some)
    }

    fn run_step(
        &self,
        pipeline: &Pipeline,
        argv: &[String],
        file: &Path,
        buffer: Option<&str>,
        run_dir: &Path,
    ) -> Result<Preprocessed, PreprocessError> {
        let file_s = file.to_string_lossy().into_owned();
        let mut argv = argv.to_vec();
        let mut copy = None;
        if let Some(text) = buffer {
            let name =
                file.file_name().ok_or_else(|| PreprocessError::Io(format!("{} has no file name", file.display())))?;
            let tmp = run_dir.join(name);
            std::fs::write(&tmp, text)
                .map_err(|e| PreprocessError::Io(format!("cannot write {}: {e}", tmp.display())))?;
            let tmp_s = tmp.to_string_lossy().into_owned();
            let at = argv
                .iter()
                .position(|a| *a == file_s)
                .ok_or_else(|| PreprocessError::Tool("the source is not on the preprocessing command line".into()))?;
            argv[at] = tmp_s.clone();
            let dir = file.parent().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
            argv.insert(at, dir);
            argv.insert(at, "-iquote".into());
            copy = Some(tmp_s);
        }
        let out_at = argv
            .iter()
            .position(|a| a == "-o")
            .ok_or_else(|| PreprocessError::Tool("no -o on the preprocessing command line".into()))?
            + 1;
        let ii = run_dir.join("unit.ii");
        argv[out_at] = ii.to_string_lossy().into_owned();
        // The macros defined at the end: the same command with -dM, run
        // beside the preprocessing (it reads the same files; both are on
        // the way to an opened file's first diagnostics).
        let macros_file = run_dir.join("macros.h");
        let mut macro_argv = argv.clone();
        macro_argv[out_at] = macros_file.to_string_lossy().into_owned();
        let e_at = macro_argv.iter().position(|a| a == "-E").map_or(1, |i| i + 1);
        macro_argv.insert(e_at, "-dM".into());
        let (unit, defined) = std::thread::scope(|scope| {
            let defined = scope.spawn(|| run(pipeline, &macro_argv));
            // The compiler's messages name the copy: name the file instead.
            let unit = run(pipeline, &argv).map_err(|e| match (&copy, e) {
                (Some(tmp), PreprocessError::Tool(m)) => PreprocessError::Tool(m.replace(tmp.as_str(), &file_s)),
                (_, e) => e,
            });
            let unit = unit.map(|m| match &copy {
                Some(tmp) => m.replace(tmp.as_str(), &file_s),
                None => m,
            });
            (unit, defined.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        });
        let messages = unit?;
        let bytes =
            std::fs::read(&ii).map_err(|e| PreprocessError::Io(format!("cannot read {}: {e}", ii.display())))?;
        let mut text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        if let Some(tmp) = &copy {
            text = text.replace(&format!("\"{tmp}\""), &format!("\"{file_s}\""));
        }
        defined?;
        let defs = std::fs::read_to_string(&macros_file)
            .map_err(|e| PreprocessError::Io(format!("cannot read {}: {e}", macros_file.display())))?;
        let macros = defs
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .map(|l| l.split(['(', ' ']).next().unwrap_or("").to_string())
            .collect();
        Ok(Preprocessed { text, macros, messages })
    }
}

/// Runs a preprocessing; what it printed when it succeeded.
fn run(pipeline: &Pipeline, argv: &[String]) -> Result<String, PreprocessError> {
    let step = cufront_toolkit::Step { kind: StepKind::HostPreprocess, argv: argv.to_vec() };
    let out =
        pipeline.command(&step).output().map_err(|e| PreprocessError::Tool(format!("cannot run {}: {e}", argv[0])))?;
    if !out.status.success() {
        return Err(PreprocessError::Tool(String::from_utf8_lossy(&out.stderr).trim_end().to_string()));
    }
    Ok(String::from_utf8_lossy(&out.stderr).trim_end().to_string())
}

/// Paths in preprocessor flags made absolute against `dir` (nvcc runs in
/// the server's directory, not the entry's).
fn absolute_flags(opts: &CompileOptions, dir: &Path) -> CompileOptions {
    let mut out = opts.clone();
    let abs = |p: &str| {
        if Path::new(p).is_absolute() { p.to_string() } else { dir.join(p).to_string_lossy().into_owned() }
    };
    let mut i = 0;
    while i < out.flags.len() {
        let f = out.flags[i].clone();
        if matches!(f.as_str(), "-I" | "-isystem" | "-include" | "-iquote") && i + 1 < out.flags.len() {
            out.flags[i + 1] = abs(&out.flags[i + 1]);
            i += 2;
            continue;
        }
        if let Some(p) = f.strip_prefix("-I").filter(|p| !p.is_empty()) {
            out.flags[i] = format!("-I{}", abs(p));
        }
        i += 1;
    }
    out
}

/// How the front end reads a unit compiled with `opts`.
pub fn lang_options(opts: &CompileOptions) -> LangOptions {
    LangOptions {
        standard: match opts.std {
            Std::Cxx11 => LangStandard::Cxx11,
            Std::Cxx14 => LangStandard::Cxx14,
            Std::Cxx17 => LangStandard::Cxx17,
            Std::Cxx20 => LangStandard::Cxx20,
        },
        // Bodies are parsed on demand: the user's by `user_parse`, the
        // headers' when `hir` needs one.
        lazy_bodies: true,
        ..LangOptions::default()
    }
}

/// A unit loaded from disk (or a buffer): the change that gives the host
/// the unit and the texts of the files it names that `known` lacks.
pub fn load_unit(
    pre: &Preprocessor,
    file: &Path,
    flags: &FileFlags,
    buffer: Option<&str>,
    known: &dyn Fn(&str) -> bool,
) -> Result<crate::Change, PreprocessError> {
    // The two preprocessings are independent (nvcc runs them one after
    // the other): side by side here.
    let (change, device) = std::thread::scope(|scope| {
        let device = scope.spawn(|| load_device(pre, file, flags, buffer));
        let host = load_host(pre, file, flags, buffer, known);
        (host, device.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    });
    let mut change = change?;
    change.units[0].device = device?;
    Ok(change)
}

/// The device view of `file` ([`View::Device`]): `None` when nvcc runs no
/// device front end; the compiler's failure is the view's diagnostic.
pub fn load_device(
    pre: &Preprocessor,
    file: &Path,
    flags: &FileFlags,
    buffer: Option<&str>,
) -> Result<Option<crate::DeviceChange>, PreprocessError> {
    Ok(match pre.preprocess_view(file, flags, buffer, View::Device) {
        Ok(None) => None,
        Ok(Some(d)) => Some(crate::DeviceChange::Unit {
            text: std::sync::Arc::from(d.text),
            macros: Some(std::sync::Arc::new(d.macros)),
            messages: std::sync::Arc::from(d.messages),
        }),
        Err(PreprocessError::Tool(m)) => Some(crate::DeviceChange::Failed(m)),
        Err(e) => return Err(e),
    })
}

/// [`load_unit`] without the device view (`device: None`; a first load
/// shows the host pass's diagnostics while the device view is made).
pub fn load_host(
    pre: &Preprocessor,
    file: &Path,
    flags: &FileFlags,
    buffer: Option<&str>,
    known: &dyn Fn(&str) -> bool,
) -> Result<crate::Change, PreprocessError> {
    let p = pre.preprocess(file, flags, buffer)?;
    let main = file.to_string_lossy().into_owned();
    let dir = file.parent().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
    let lines = crate::lines::UnitLines::new(&p.text, &main, &dir);
    let mut change = crate::Change::default();
    for f in &lines.files {
        if f.starts_with('<') || *f == main || known(f) {
            continue;
        }
        if let Ok(bytes) = std::fs::read(f) {
            change.files.push((f.clone(), std::sync::Arc::from(String::from_utf8_lossy(&bytes).as_ref())));
        }
    }
    let main_text = match buffer {
        Some(b) => b.to_string(),
        None => std::fs::read_to_string(file)
            .map_err(|e| PreprocessError::Io(format!("cannot read {}: {e}", file.display())))?,
    };
    change.files.push((main.clone(), std::sync::Arc::from(main_text)));
    change.units.push(crate::UnitChange {
        main,
        text: std::sync::Arc::from(p.text),
        lang: lang_options(&flags.options),
        checks: pre.check_options(file, flags)?,
        shown: pre.shown_flags(file, flags)?,
        macros: Some(std::sync::Arc::new(p.macros)),
        messages: std::sync::Arc::from(p.messages),
        system_dirs: vec![format!("{}/", crate::lines::normalize(&pre.toolkit().root().to_string_lossy(), ""))],
        device: None,
    });
    Ok(change)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_messages_with_positions() {
        let out = "/w/a.cu:2:10: warning: missing terminating ' character\n    2 | char c = 'a;\n      |          ^\nIn file included from /w/a.cu:2:\n/w/a.cu:3:10: fatal error: nope.h: No such file or directory\n    3 | #include \"nope.h\"\ncompilation terminated.";
        assert_eq!(
            tool_messages(out),
            [
                ToolMessage {
                    file: "/w/a.cu".into(),
                    line: 2,
                    col: 10,
                    severity: crate::Severity::Warning,
                    text: "missing terminating ' character".into()
                },
                ToolMessage {
                    file: "/w/a.cu".into(),
                    line: 3,
                    col: 10,
                    severity: crate::Severity::Error,
                    text: "nope.h: No such file or directory".into()
                }
            ]
        );
    }
}
