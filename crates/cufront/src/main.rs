//! The `cufront` binary: cufront-native commands (clap) and, when invoked as
//! `cudafe++`, the cudafe++-compatible command line.

mod parse_cmd;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse(args) => parse_cmd::run(args),
    }
}
