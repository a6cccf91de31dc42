//! `cufront daemon start|stop|status|serve`: the user's build daemon, which
//! runs cudafe++ compilations for `CUFRONT_DAEMON=1` clients and keeps their
//! databases between runs (see `cudafe/remote.rs`; the machinery is the
//! cufront-daemon crate).
//!
//! Settings (flags of `start`/`serve`; a daemon started by a client reads
//! the environment): `--max-units` / `CUFRONT_DAEMON_MAX_UNITS` (units kept,
//! least recently used evicted; default 8), `--idle-secs` /
//! `CUFRONT_DAEMON_IDLE_SECS` (exit after this long unused; default 3
//! hours), `CUFRONT_DAEMON_DIR` (the runtime directory).

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::Duration;

use cufront_daemon::client::{self, ClientError};
use cufront_daemon::protocol::{Request, Response};
use cufront_daemon::{paths, server};

#[derive(clap::Args)]
pub struct DaemonArgs {
    #[command(subcommand)]
    command: DaemonCommand,
}

#[derive(clap::Subcommand)]
enum DaemonCommand {
    /// Start the daemon in the background (no-op when one runs).
    Start(Settings),
    /// Stop the daemon (after the compilations in flight).
    Stop,
    /// Print the daemon's state; exit status 3 when none runs.
    Status,
    /// Run the daemon in the foreground (what `start` launches).
    #[command(hide = true)]
    Serve(Settings),
}

#[derive(clap::Args, Clone)]
struct Settings {
    /// Units (databases) kept; the least recently used are evicted.
    #[arg(long)]
    max_units: Option<usize>,
    /// Exit after this many seconds without a request.
    #[arg(long)]
    idle_secs: Option<u64>,
}

impl Settings {
    fn from_env() -> Settings {
        Settings { max_units: None, idle_secs: None }.resolved()
    }
    fn resolved(self) -> Settings {
        let num = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        Settings {
            max_units: self.max_units.or(num("CUFRONT_DAEMON_MAX_UNITS").map(|n| n as usize)).or(Some(8)),
            idle_secs: self.idle_secs.or(num("CUFRONT_DAEMON_IDLE_SECS")).or(Some(3 * 3600)),
        }
    }
    fn args(&self) -> Vec<String> {
        let mut a = Vec::new();
        if let Some(n) = self.max_units {
            a.extend(["--max-units".to_string(), n.to_string()]);
        }
        if let Some(s) = self.idle_secs {
            a.extend(["--idle-secs".to_string(), s.to_string()]);
        }
        a
    }
}

pub fn run(args: DaemonArgs) -> ExitCode {
    let dir = paths::runtime_dir();
    match args.command {
        DaemonCommand::Serve(s) => serve(s.resolved()),
        DaemonCommand::Start(s) => {
            let s = s.resolved();
            match client::ensure_running(&dir, || spawn(&s), Duration::from_secs(20)) {
                Ok(()) => {
                    print_status(&dir);
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e.to_string()),
            }
        }
        DaemonCommand::Stop => match client::request(&dir, &Request::Stop) {
            Ok(Response::Stopping) => {
                // Returns once the server is gone (compilations in flight
                // end first), so that a new one can start at once.
                if client::wait_stopped(&dir, Duration::from_secs(70)) {
                    eprintln!("cufront: daemon stopped");
                    ExitCode::SUCCESS
                } else {
                    fail("the daemon is still finishing its compilations")
                }
            }
            Ok(other) => fail(&format!("unexpected reply {other:?}")),
            Err(ClientError::NotRunning) => {
                eprintln!("cufront: no daemon is running");
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        },
        DaemonCommand::Status => {
            if print_status(&dir) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(3)
            }
        }
    }
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("cufront: daemon: {msg}");
    ExitCode::from(2)
}

fn print_status(dir: &std::path::Path) -> bool {
    match client::request(dir, &Request::Status) {
        Ok(Response::Status(s)) => {
            println!(
                "cufront daemon: pid {}, socket {}, up {:.1} s, {} requests, {}/{} units cached, RSS {:.1} MiB",
                s.pid,
                paths::socket_path(dir).display(),
                s.uptime_ms as f64 / 1000.0,
                s.requests,
                s.units,
                s.max_units,
                s.rss_bytes as f64 / (1 << 20) as f64,
            );
            true
        }
        Ok(other) => {
            eprintln!("cufront: daemon: unexpected reply {other:?}");
            false
        }
        Err(e) => {
            println!("cufront daemon: not running ({e})");
            false
        }
    }
}

fn serve(s: Settings) -> ExitCode {
    let build = match build_id() {
        Ok(b) => b,
        Err(e) => return fail(&format!("cannot identify this executable: {e}")),
    };
    let opts = server::Options {
        dir: paths::runtime_dir(),
        build,
        idle_exit: s.idle_secs.filter(|&n| n > 0).map(Duration::from_secs),
        max_connections: 64,
        // A compilation runs on its connection's thread: give it the stack
        // a process's main thread has, and more.
        stack_size: 64 << 20,
    };
    let handler = Arc::new(crate::cudafe::Server::new(s.max_units.unwrap_or(8)));
    match server::serve(opts, handler) {
        Ok(()) => ExitCode::SUCCESS,
        Err(server::ServeError::AlreadyRunning) => {
            eprintln!("cufront: a daemon is already running");
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// Starts a daemon with the settings of the environment (a client's
/// automatic start).
pub fn spawn_server() -> std::io::Result<()> {
    spawn(&Settings::from_env())
}

/// Launches `cufront daemon serve` detached: its own session (a terminal's
/// signals do not reach it), `/` as its directory (it pins no directory),
/// no inherited stdio, and re-parented (double fork: it is no child of the
/// client, which need not reap it).
fn spawn(s: &Settings) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    // argv[0] `cudafe++` would select the cudafe++ command line.
    cmd.arg0("cufront")
        .args(["daemon", "serve"])
        .args(s.args())
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: only async-signal-safe calls (setsid, fork, _exit) between
    // fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            match libc::fork() {
                -1 => Err(std::io::Error::last_os_error()),
                0 => Ok(()),
                _ => libc::_exit(0),
            }
        });
    }
    cmd.spawn()?.wait()?;
    Ok(())
}

/// The identity of this executable: path, size and modification time. A
/// daemon answers only clients of its own build (a rebuilt cufront must not
/// get the old one's outputs).
pub fn build_id() -> std::io::Result<String> {
    let exe = std::env::current_exe()?;
    let m = std::fs::metadata(&exe)?;
    Ok(format!("{}:{}:{}.{}", exe.display(), m.len(), m.mtime(), m.mtime_nsec()))
}
