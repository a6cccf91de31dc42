//! The `cufront` binary: cufront-native commands (clap) and, when invoked as
//! `cudafe++`, the cudafe++-compatible command line.

mod check_cmd;
mod cudafe;
mod daemon_cmd;
mod device_cmd;
mod inspect;
mod nvcc_cmd;
mod overlay;
mod parse_cmd;
mod toolkit_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Syntax trees are many small allocations (every cursor step of a rowan
/// walk allocates): mimalloc makes the back end and the tree build a good
/// deal faster than the system allocator.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Print what `nvcc -c FILE [flags]` prints for its two front-end passes
    /// (cudafe++'s, then cicc's), with nvcc's exit status.
    Check(check_cmd::CheckArgs),
    /// Show what the semantic model computes (`inspect layout FILE.ii [TYPE]`).
    Inspect(inspect::InspectArgs),
    /// Run the language server (LSP) over stdin/stdout.
    Lsp {
        /// A CUDA installation (its root, or its bin/nvcc).
        #[arg(long)]
        cuda_path: Option<std::path::PathBuf>,
        /// The compile_commands.json to read (default: the workspace root's, else its build/'s).
        #[arg(long)]
        compile_commands: Option<std::path::PathBuf>,
    },
    /// cicc's front end on nvcc's cicc command line: the stub file and a device listing.
    #[command(disable_help_flag = true)]
    Device {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// The build daemon (`CUFRONT_DAEMON=1` hands cudafe++ runs to it).
    Daemon(daemon_cmd::DaemonArgs),
    /// nvcc with cufront as its cudafe++ (`-j N`, `--compile-commands FILE`, `--daemon`).
    #[command(disable_help_flag = true)]
    Nvcc {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Find or fetch the real CUDA toolkit (the oracle).
    Toolkit(toolkit_cmd::ToolkitArgs),
    /// Behave exactly like cudafe++ (also when the binary is named `cudafe++`).
    #[command(name = "cudafe++", disable_help_flag = true)]
    Cudafe {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
}

/// The stack of the thread that does the work. Instantiating deep template
/// metaprograms (CuTe's collective builders: constexpr calls whose overloads
/// are resolved by inference, which evaluates constexpr conditions in turn)
/// nests further than the main thread's 8 MiB allow in a debug build; the
/// depth itself is bounded by the model (instantiation depth, EDG's call
/// depth), not by the stack. Reserved, not committed, memory.
pub(crate) const STACK_SIZE: usize = 512 << 20;

fn main() -> ExitCode {
    match std::thread::Builder::new().name("cufront".into()).stack_size(STACK_SIZE).spawn(real_main) {
        // A panic keeps its status (101), as on the main thread.
        Ok(t) => {
            // The worker writes stderr; a signal must interrupt it, not this one.
            cudafe::signals::leave_to_the_writer();
            t.join().unwrap_or(ExitCode::from(101))
        }
        Err(_) => real_main(),
    }
}

/// Restores SIGPIPE's default action (Rust starts with it ignored).
fn end_on_broken_pipe() {
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn real_main() -> ExitCode {
    // The cudafe++ grammar is not clap's (prefix abbreviations, `-e2`, values
    // that start with `-`): hand its arguments over untouched.
    let argv: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if argv.first().is_some_and(|a0| cudafe::is_cudafe_name(a0.as_ref())) {
        return exit_code(cudafe::main(&argv[1..]));
    }
    if argv.get(1).is_some_and(|a| a == "cudafe++") {
        return exit_code(cudafe::main(&argv[2..]));
    }
    // nvcc's grammar is not clap's either.
    if argv.get(1).is_some_and(|a| a == "nvcc") {
        return nvcc_cmd::run(&argv[2..]);
    }
    let cli = Cli::parse();
    // Commands that print listings end quietly when their reader goes away
    // (`cufront parse --tree x.ii | head`), as other Unix tools do, instead
    // of failing on the next write. Servers keep the default (a client
    // that disconnects must not end them).
    if matches!(cli.command, Command::Parse(_) | Command::Inspect(_) | Command::Toolkit(_)) {
        end_on_broken_pipe();
    }
    match cli.command {
        Command::Parse(args) => parse_cmd::run(args),
        Command::Check(args) => check_cmd::run(args),
        Command::Toolkit(args) => toolkit_cmd::run_toolkit(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Daemon(args) => daemon_cmd::run(args),
        Command::Nvcc { args } => nvcc_cmd::run(&args),
        Command::Cudafe { args } => exit_code(cudafe::main(&args)),
        Command::Device { args } => device_cmd::run(&args),
        Command::Lsp { cuda_path, compile_commands } => {
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
            match cufront_lsp::run_stdio(cufront_lsp::Config { cuda_path, compile_commands, threads }) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("cufront lsp: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(u8::MAX))
}
