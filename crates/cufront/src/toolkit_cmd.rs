//! `cufront toolkit fetch|path` (the real CUDA toolkit cufront is checked
//! against) and `cufront check FILE.cu` (preprocess like nvcc, parse, report
//! syntax errors at their original positions).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cufront_syntax::{LexOptions, ParseOptions, source_map::SourceMap};
use cufront_toolkit::{CompileOptions, Locate, Std};

#[derive(clap::Args)]
pub struct ToolkitArgs {
    #[command(subcommand)]
    command: ToolkitCommand,
}

#[derive(clap::Subcommand)]
enum ToolkitCommand {
    /// Fetch the pinned CUDA 13.0 toolkit into the user cache (with pip), or
    /// verify the copy already there, and print its root.
    Fetch,
    /// Build a toolkit tree in DIR whose bin/cudafe++ is cufront (DIR/bin/nvcc runs unchanged).
    Overlay {
        dir: PathBuf,
        #[arg(long)]
        cuda_path: Option<PathBuf>,
    },
    /// Print the root of the toolkit cufront would use (no download).
    Path {
        /// A CUDA installation (its root, or its bin/nvcc).
        #[arg(long)]
        cuda_path: Option<PathBuf>,
    },
}

pub fn run_toolkit(args: ToolkitArgs) -> ExitCode {
    let found = match args.command {
        ToolkitCommand::Fetch => cufront_toolkit::fetch_pinned(),
        ToolkitCommand::Path { cuda_path } => cufront_toolkit::find(&Locate { cuda_path, require_pinned: false }),
        ToolkitCommand::Overlay { dir, cuda_path } => return crate::overlay::run(&dir, cuda_path),
    };
    match found {
        Ok(tk) => {
            println!("{}", tk.root().display());
            eprintln!("cufront: CUDA {}", tk.version());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cufront: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Language standard (`-std=` of nvcc).
    #[arg(long, default_value = "c++17", value_parser = parse_std)]
    std: Std,
    /// A CUDA installation (its root, or its bin/nvcc); by default CUDA_HOME,
    /// nvcc on PATH, else the pinned toolkit (fetched on first use).
    #[arg(long)]
    cuda_path: Option<PathBuf>,
    /// The CUDA source file.
    file: PathBuf,
    /// Further nvcc flags (`--extended-lambda`, `-DNAME`, `-Idir`, `-std=c++20`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    nvcc_flags: Vec<String>,
}

fn parse_std(s: &str) -> Result<Std, String> {
    Std::parse(s).ok_or_else(|| format!("unknown standard `{s}` (c++11, c++14, c++17, c++20)"))
}

pub fn run_check(args: CheckArgs) -> ExitCode {
    let mut opts = CompileOptions::new(args.std);
    // An `-std=` among the nvcc flags wins, as it would on nvcc's command line.
    for flag in args.nvcc_flags {
        match flag.strip_prefix("-std=").or_else(|| flag.strip_prefix("--std=")).map(Std::parse) {
            Some(Some(std)) => opts.std = std,
            Some(None) => {
                eprintln!("cufront: unsupported {flag}");
                return ExitCode::from(2);
            }
            None => opts.flags.push(flag),
        }
    }
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
    let result = check(&tk, &args.file, &opts, &work);
    let _ = std::fs::remove_dir_all(&work);
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("cufront: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints each syntax error and the count; returns the count.
fn check(tk: &cufront_toolkit::Toolkit, file: &Path, opts: &CompileOptions, work: &Path) -> Result<usize, String> {
    let ii = tk.preprocess_host(file, opts, work).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(&ii).map_err(|e| format!("cannot read {}: {e}", ii.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let parse_opts = ParseOptions {
        lex: LexOptions { cxx20: opts.std.is_cxx20(), digit_separators: true },
        ..ParseOptions::default()
    };
    let parse = cufront_syntax::parse(&text, parse_opts);
    let map = SourceMap::new(&text, &file.display().to_string());
    for e in parse.errors() {
        let loc = map.location(e.range.start().into());
        println!("{}:{}:{}: error: {}", map.file_name(loc.file), loc.line, loc.col, e.msg);
    }
    let n = parse.errors().len();
    println!("{n} syntax error{}", if n == 1 { "" } else { "s" });
    Ok(n)
}
