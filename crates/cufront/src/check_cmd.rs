//! `cufront check FILE.cu [nvcc flags]`: what `nvcc -c` prints for the
//! front-end passes of a file, and nvcc's exit status, without running
//! cicc, ptxas or the host compiler.
//!
//! The steps are nvcc's own, read off `nvcc --dryrun` with the user's
//! flags, walked in nvcc's order up to the first step after the front ends:
//! - the host and device preprocessings run the real preprocessor (its
//!   stderr is forwarded; its failure stops the build with status 1);
//! - cudafe++'s step is the cudafe++ mode itself ([`cudafe::run_pass`],
//!   `Pass::Host`) on cudafe++'s exact command line plus `--no_code_gen`
//!   (no host file is wanted), so every check of that mode is a check of
//!   `check`; its failure stops with status 2;
//! - each cicc step is the same front end on cicc's front-end options and
//!   the device preprocessing (`Pass::Device`); its failure stops with
//!   status 1.
//!
//! Each pass prints its own block (diagnostics, `Remark:` hint, trailer) to
//! stderr as the real tool does; a clean file prints nothing. Intermediate
//! files live in a private temporary folder, removed at the end. The host
//! and device halves run side by side (see [`check`]); the output is
//! nvcc's order all the same.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cufront_toolkit::{Locate, Pipeline, Step, StepKind, Toolkit};

use crate::cudafe::{self, Pass};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// A CUDA installation (its root, or its bin/nvcc); by default CUDA_HOME,
    /// nvcc on PATH, else the pinned toolkit (fetched on first use).
    #[arg(long)]
    cuda_path: Option<PathBuf>,
    /// The CUDA source file and nvcc flags, in any order as on nvcc's command
    /// line (`-std=c++20`, `--extended-lambda`, `-DNAME`, `-Idir`,
    /// `-arch=sm_90`, `--diag-suppress 940`). The source file is the one
    /// argument that is not an option and ends in a source extension.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "FILE.cu [NVCC_FLAGS]")]
    args: Vec<String>,
}

/// The extensions nvcc compiles as CUDA or C++ sources.
const SOURCE_EXTENSIONS: &[&str] = &["cu", "cpp", "cc", "cxx", "c++", "cp", "c"];

/// Splits nvcc's arguments into the one source file and the flags around it.
fn split_source(args: &[String]) -> Result<(PathBuf, Vec<String>), String> {
    let is_source = |a: &String| {
        !a.starts_with('-')
            && Path::new(a).extension().and_then(|e| e.to_str()).is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
    };
    let sources: Vec<usize> = (0..args.len()).filter(|&i| is_source(&args[i])).collect();
    match sources[..] {
        [i] => {
            let flags = args.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, a)| a.clone()).collect();
            Ok((PathBuf::from(&args[i]), flags))
        }
        [] => Err("no source file (FILE.cu) among the arguments".to_string()),
        _ => Err("more than one source file among the arguments; `check` takes one".to_string()),
    }
}

pub fn run(args: CheckArgs) -> ExitCode {
    let (file, flags) = match split_source(&args.args) {
        Ok(split) => split,
        Err(e) => {
            eprintln!("cufront check: {e}");
            return ExitCode::from(2);
        }
    };
    if !file.is_file() {
        eprintln!("cufront: cannot read {}", file.display());
        return ExitCode::from(2);
    }
    let tk = match cufront_toolkit::find_or_fetch(&Locate { cuda_path: args.cuda_path, require_pinned: false }) {
        Ok(tk) => tk,
        Err(e) => {
            eprintln!("cufront: {e}");
            return ExitCode::from(2);
        }
    };
    let work = std::env::temp_dir().join(format!("cufront-check-{}", std::process::id()));
    let result = check(&tk, &file, &flags, &work, &mut std::io::stderr().lock());
    let _ = std::fs::remove_dir_all(&work);
    match result {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            eprintln!("cufront: {e}");
            ExitCode::from(2)
        }
    }
}

/// nvcc's exit status when a step fails.
const PREPROCESSOR_FAILED: u8 = 1;
const CUDAFE_FAILED: u8 = 2;
const CICC_FAILED: u8 = 1;

/// One front end and the preprocessing that feeds it (or a preprocessing
/// alone), in nvcc's order.
struct Unit<'p> {
    preprocess: Option<&'p Step>,
    pass: Option<(&'p Step, Pass)>,
}

/// What a unit printed, and nvcc's status if it failed.
struct Printed {
    stderr: Vec<u8>,
    failed: Option<u8>,
}

/// Runs the front-end steps of `nvcc FLAGS -c FILE` (see the module doc),
/// writing what they print to `out`; returns nvcc's exit status.
///
/// nvcc runs its steps one after the other; here each preprocessing and
/// the pass that reads it run on a thread of their own (the host's and the
/// device's are independent), and what they print is written in nvcc's
/// order, up to the first failure, as nvcc would have printed it.
pub fn check(
    tk: &Toolkit,
    file: &Path,
    flags: &[String],
    work: &Path,
    out: &mut dyn Write,
) -> Result<u8, cufront_toolkit::Error> {
    let cwd = std::env::current_dir().map_err(|e| cufront_toolkit::Error::Io(format!("no current directory: {e}")))?;
    let pipeline = tk.dryrun_args(&cwd, file, flags, work)?;
    let units = units(&pipeline.steps);
    let printed: Vec<Result<Vec<Printed>, cufront_toolkit::Error>> = std::thread::scope(|scope| {
        // Each unit's passes recurse as deep as the main thread's (large
        // library units need more than a default thread stack).
        let pipeline = &pipeline;
        let spawn = |u| {
            std::thread::Builder::new()
                .name("cufront-unit".into())
                .stack_size(crate::STACK_SIZE)
                .spawn_scoped(scope, move || run_unit(pipeline, u))
        };
        let handles: Vec<_> = units.iter().map(spawn).collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(e) => Err(cufront_toolkit::Error::Io(format!("cannot start a thread: {e}"))),
            })
            .collect()
    });
    for unit in printed {
        for p in unit? {
            let _ = out.write_all(&p.stderr);
            if let Some(status) = p.failed {
                let _ = out.flush();
                return Ok(status);
            }
        }
    }
    let _ = out.flush();
    Ok(0)
}

/// The front-end steps grouped as units, up to the first back-end step.
fn units(steps: &[Step]) -> Vec<Unit<'_>> {
    let mut units = Vec::new();
    let mut preprocess = None;
    for step in steps {
        let pass = match step.kind {
            StepKind::HostPreprocess | StepKind::DevicePreprocess => {
                if let Some(p) = preprocess.replace(step) {
                    units.push(Unit { preprocess: Some(p), pass: None });
                }
                continue;
            }
            StepKind::Cudafe => Pass::Host,
            StepKind::Cicc => Pass::Device,
            StepKind::Ptxas | StepKind::Fatbinary | StepKind::HostCompile => break,
            StepKind::Other => continue,
        };
        units.push(Unit { preprocess: preprocess.take(), pass: Some((step, pass)) });
    }
    if let Some(p) = preprocess {
        units.push(Unit { preprocess: Some(p), pass: None });
    }
    units
}

/// Runs a unit: the preprocessing (the real command), then, if it
/// succeeded, the pass in process (the command lines' relative paths are
/// relative to nvcc's working directory, which is this process's).
fn run_unit(pipeline: &Pipeline, unit: &Unit<'_>) -> Result<Vec<Printed>, cufront_toolkit::Error> {
    let mut printed = Vec::new();
    if let Some(step) = unit.preprocess {
        let o = pipeline
            .command(step)
            .output()
            .map_err(|e| cufront_toolkit::Error::Tool(format!("cannot run {}: {e}", step.argv[0])))?;
        let failed = (!o.status.success()).then_some(PREPROCESSOR_FAILED);
        printed.push(Printed { stderr: o.stderr, failed });
        if failed.is_some() {
            return Ok(printed);
        }
    }
    if let Some((step, pass)) = unit.pass {
        let mut stderr = Vec::new();
        // No host file is wanted, so cudafe++'s step runs without code
        // generation (as the device pass always does): its back end adds
        // only cufront's own "cannot translate" errors, which nvcc never
        // prints, and costs about a fifth of the pass.
        let no_code_gen = (pass == Pass::Host).then(|| "--no_code_gen".to_string());
        let args: Vec<String> = no_code_gen.into_iter().chain(step.argv[1..].iter().cloned()).collect();
        let status = cudafe::run_pass(&args, pass, &mut stderr);
        let failed = (status != 0).then_some(match pass {
            Pass::Host => CUDAFE_FAILED,
            Pass::Device => CICC_FAILED,
        });
        printed.push(Printed { stderr, failed });
    }
    Ok(printed)
}

#[cfg(test)]
mod tests {
    use super::split_source;

    fn split(args: &[&str]) -> Result<(String, Vec<String>), String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        split_source(&args).map(|(f, flags)| (f.display().to_string(), flags))
    }

    #[test]
    fn the_source_file_is_found_among_flags_in_any_order() {
        let flags = vec!["-std=c++20".to_string(), "--diag-suppress".to_string(), "940".to_string()];
        assert_eq!(split(&["-std=c++20", "x.cu", "--diag-suppress", "940"]), Ok(("x.cu".to_string(), flags.clone())));
        assert_eq!(split(&["-std=c++20", "--diag-suppress", "940", "x.cu"]), Ok(("x.cu".to_string(), flags)));
        assert_eq!(split(&["-I", "inc", "dir/y.cpp"]), Ok(("dir/y.cpp".to_string(), vec!["-I".into(), "inc".into()])));
        assert!(split(&["-std=c++20"]).is_err());
        assert!(split(&["a.cu", "b.cu"]).is_err());
    }
}
