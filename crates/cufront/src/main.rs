//! The `cufront` binary: cufront-native commands (clap) and, when invoked as
//! `cudafe++`, the cudafe++-compatible command line.

mod parse_cmd;
mod toolkit_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cufront", version, about = "CUDA C++ front end (drop-in cudafe++)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a preprocessed translation unit and report syntax errors.
    Parse(parse_cmd::ParseArgs),
    /// Preprocess a .cu file like nvcc, parse it, report syntax errors.
    Check(toolkit_cmd::CheckArgs),
    /// Find or fetch the real CUDA toolkit (the oracle).
    Toolkit(toolkit_cmd::ToolkitArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse(args) => parse_cmd::run(args),
        Command::Check(args) => toolkit_cmd::run_check(args),
        Command::Toolkit(args) => toolkit_cmd::run_toolkit(args),
    }
}
