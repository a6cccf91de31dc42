//! `cufront check FILE.cu [nvcc flags]`: what `nvcc -c` prints for the
//! front-end passes of a file, and nvcc's exit status, without running
//! cicc, ptxas or the host compiler.
//!
//! The steps are nvcc's own, read off `nvcc --dryrun` with the user's
//! flags, walked in nvcc's order up to the first step after the front ends:
//! - the host and device preprocessings run the real preprocessor (its
//!   stderr is forwarded; its failure stops the build with status 1);
//! - cudafe++'s step is the cudafe++ mode itself ([`cudafe::run_pass`],
//!   `Pass::Host`) on cudafe++'s exact command line, so every check of that
//!   mode is a check of `check`; its failure stops with status 2;
//! - each cicc step is the same front end on cicc's front-end options and
//!   the device preprocessing (`Pass::Device`); its failure stops with
//!   status 1.
//!
//! Each pass prints its own block (diagnostics, `Remark:` hint, trailer) to
//! stderr as the real tool does; a clean file prints nothing. Intermediate
//! files live in a private temporary folder, removed at the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cufront_toolkit::{Locate, StepKind, Toolkit};

use crate::cudafe::{self, Pass};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// A CUDA installation (its root, or its bin/nvcc); by default CUDA_HOME,
    /// nvcc on PATH, else the pinned toolkit (fetched on first use).
    #[arg(long)]
    cuda_path: Option<PathBuf>,
    /// The CUDA source file.
    file: PathBuf,
    /// nvcc flags, as on nvcc's command line (`-std=c++20`, `--extended-lambda`,
    /// `-DNAME`, `-Idir`, `-arch=sm_90`, `--diag-suppress 940`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    nvcc_flags: Vec<String>,
}

pub fn run(args: CheckArgs) -> ExitCode {
    if !args.file.is_file() {
        eprintln!("cufront: cannot read {}", args.file.display());
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
    let result = check(&tk, &args.file, &args.nvcc_flags, &work, &mut std::io::stderr().lock());
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

/// Runs the front-end steps of `nvcc FLAGS -c FILE` (see the module doc),
/// writing what they print to `out`; returns nvcc's exit status.
pub fn check(
    tk: &Toolkit,
    file: &Path,
    flags: &[String],
    work: &Path,
    out: &mut dyn Write,
) -> Result<u8, cufront_toolkit::Error> {
    let cwd = std::env::current_dir().map_err(|e| cufront_toolkit::Error::Io(format!("no current directory: {e}")))?;
    let pipeline = tk.dryrun_args(&cwd, file, flags, work)?;
    for step in &pipeline.steps {
        let failed = match step.kind {
            StepKind::HostPreprocess | StepKind::DevicePreprocess => {
                let o = pipeline
                    .command(step)
                    .output()
                    .map_err(|e| cufront_toolkit::Error::Tool(format!("cannot run {}: {e}", step.argv[0])))?;
                let _ = out.write_all(&o.stderr);
                (!o.status.success()).then_some(PREPROCESSOR_FAILED)
            }
            StepKind::Cudafe => {
                // The command lines' relative paths are relative to nvcc's
                // working directory, which is this process's.
                (cudafe::run_pass(&step.argv[1..], Pass::Host, &mut *out) != 0).then_some(CUDAFE_FAILED)
            }
            StepKind::Cicc => (cudafe::run_pass(&step.argv[1..], Pass::Device, &mut *out) != 0).then_some(CICC_FAILED),
            // The front ends are done at the first back-end step.
            StepKind::Ptxas | StepKind::Fatbinary | StepKind::HostCompile => break,
            StepKind::Other => None,
        };
        if let Some(status) = failed {
            let _ = out.flush();
            return Ok(status);
        }
    }
    let _ = out.flush();
    Ok(0)
}
