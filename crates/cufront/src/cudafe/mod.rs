//! The cudafe++-compatible command line: what runs when the binary is called
//! as `cudafe++` (a symlink or copy named so) or as `cufront cudafe++ ARGS…`.
//!
//! Compatible means: the same options are accepted and rejected with the same
//! messages (spec 10 §3, §6), the same diagnostics and trailer lines are
//! written to stderr (spec 60), and the process exits with the same status
//! (0 success, 1 after `--Version`, 2 errors, 4 catastrophic/command-line
//! errors or the error limit). Output files are written whole or not at all.
//!
//! A successful run writes the host file (`--gen_c_file_name`) and the
//! module id file (`back_end.rs`, through the emit crate).
//!
//! With `CUFRONT_DAEMON=1` the run happens in the user's build daemon
//! (`remote.rs`), with this process's directory, environment and id
//! (`context.rs`): the outputs are the same.

mod back_end;
mod cicc_args;
mod cmdline;
mod context;
mod flags;
mod locate;
pub(crate) mod output;
mod remote;
mod run;
pub(crate) mod signals;

pub use remote::Server;

use std::io::Write;

use cufront_diagnostics::{Arg, Diagnostic, DiagnosticEngine, EngineOptions, Message};

/// Is `argv0` a name under which the binary behaves as cudafe++?
pub fn is_cudafe_name(argv0: &std::ffi::OsStr) -> bool {
    std::path::Path::new(argv0).file_name().is_some_and(|n| n == "cudafe++")
}

/// Runs cudafe++ with `args` (without argv[0]); returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let parsed = cmdline::parse(args);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    for early in &parsed.early {
        // Printing is best effort: a closed pipe must not turn into a panic.
        let _ = match early {
            cmdline::Early::Stderr(s) => stderr.lock().write_all(s.as_bytes()),
            cmdline::Early::Stdout(s) => stdout.lock().write_all(s.as_bytes()).and_then(|_| stdout.lock().flush()),
        };
    }
    match parsed.outcome {
        cmdline::Outcome::Exit(code) => code as i32,
        cmdline::Outcome::Error(e) => command_line_error(&e, stderr.lock()),
        cmdline::Outcome::Run(cfg) => {
            signals::install();
            if let Some(status) = remote::delegate(args, &cfg) {
                return status;
            }
            run::run(&cfg, stderr.lock())
        }
    }
}

pub use cmdline::Pass;

/// Runs one front-end pass of an nvcc build in process, as `cufront check`
/// does: `args` is the pass's command line as `nvcc --dryrun` prints it
/// (without the program): cudafe++'s arguments for [`Pass::Host`], cicc's
/// for [`Pass::Device`] (only the front end's options of those are read,
/// and nothing is written). Everything the pass prints goes to `out`, as
/// the real tool prints it to stderr; returns the tool's exit status.
pub fn run_pass(args: &[String], pass: Pass, mut out: impl Write) -> i32 {
    let args = match pass {
        Pass::Host => args.to_vec(),
        Pass::Device => cicc_args::front_end_args(args),
    };
    let parsed = cmdline::parse(&args);
    for early in &parsed.early {
        let (cmdline::Early::Stderr(s) | cmdline::Early::Stdout(s)) = early;
        let _ = out.write_all(s.as_bytes());
    }
    match parsed.outcome {
        cmdline::Outcome::Exit(code) => code as i32,
        cmdline::Outcome::Error(e) => command_line_error(&e, out),
        cmdline::Outcome::Run(mut cfg) => {
            cfg.pass = pass;
            run::run(&cfg, out)
        }
    }
}

/// Reports a command-line error as cudafe++ does: the message, a blank line,
/// the "catastrophic error" trailer and `Compilation terminated.` (always in
/// text form: cudafe++ in SARIF mode crashes on these).
fn command_line_error(e: &cmdline::CmdError, out: impl Write) -> i32 {
    let opts = EngineOptions { source_name: e.name.clone(), ..EngineOptions::default() };
    let mut engine = DiagnosticEngine::new(opts, out);
    let mut diag = Diagnostic::command_line_error(e.id, e.arg.iter().map(|a| Arg::Str(a.clone())).collect());
    for line in &e.continuation {
        diag = diag.with_continuation(Message::Text(line.clone()));
    }
    engine.emit(&diag);
    let (outcome, _) = engine.finish();
    outcome.exit_code
}
