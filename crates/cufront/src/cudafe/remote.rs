//! cudafe++ through the build daemon (`CUFRONT_DAEMON=1`).
//!
//! Client side ([`delegate`]): after the command line is accepted (and its
//! early messages printed, as in-process), the arguments, the working
//! directory, the environment, the process id and whether stderr is a
//! terminal go to the user's daemon (started when none runs); its stdout,
//! stderr and exit status are replayed. Any failure to get an answer runs
//! the compilation in-process instead (said on stderr only with
//! `CUFRONT_DAEMON_DEBUG` set), so the daemon can only make a build faster.
//! Input from stdin is always run in-process.
//!
//! Server side ([`Server`]): the same command line is parsed again and run
//! with the client's [`Context`]; the unit's database is kept in an LRU
//! cache keyed by the input's absolute path, so a rebuild of the same input
//! starts from the previous run's database and salsa recomputes only what
//! the new text changes.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cufront_base_db::GreenPool;
use cufront_daemon::client;
use cufront_daemon::lru::Lru;
use cufront_daemon::paths;
use cufront_daemon::protocol::{CompileRequest, Fallback, Request, Response};

use super::cmdline::{self, Config};
use super::context::{Context, Unit};

/// Is the daemon asked for (`CUFRONT_DAEMON` set, not empty, not `0`)?
fn wanted() -> bool {
    std::env::var_os("CUFRONT_DAEMON").is_some_and(|v| !v.is_empty() && v != "0")
}

fn debug() -> bool {
    std::env::var_os("CUFRONT_DAEMON_DEBUG").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs the compilation `args` describes (accepted as `cfg`) in the daemon
/// when one is wanted; `None` = run it in-process.
pub fn delegate(args: &[String], cfg: &Config) -> Option<i32> {
    if !wanted() || cfg.input == "-" {
        return None;
    }
    match try_delegate(args) {
        Ok(status) => Some(status),
        Err(why) => {
            if debug() {
                eprintln!("cufront: daemon: {why}; running in-process");
            }
            None
        }
    }
}

fn try_delegate(args: &[String]) -> Result<i32, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
    let req = Request::Compile(CompileRequest {
        build: crate::daemon_cmd::build_id().map_err(|e| format!("cannot identify this executable: {e}"))?,
        argv: args.to_vec(),
        cwd: cwd.into_os_string().into_vec(),
        env: std::env::vars_os().map(|(k, v)| (k.into_vec(), v.into_vec())).collect(),
        pid: std::process::id(),
        stderr_is_tty: std::io::stderr().is_terminal(),
    });
    let dir = paths::runtime_dir();
    for attempt in 0..2 {
        client::ensure_running(&dir, crate::daemon_cmd::spawn_server, Duration::from_secs(20))
            .map_err(|e| e.to_string())?;
        match client::request(&dir, &req) {
            Ok(Response::Compiled { status, stdout, stderr }) => {
                // Best effort, as in-process: a closed pipe is not a panic.
                let _ = std::io::stdout().lock().write_all(&stdout).and_then(|_| std::io::stdout().flush());
                let _ = std::io::stderr().lock().write_all(&stderr);
                return Ok(status);
            }
            // The daemon runs another build of cufront and is stopping:
            // wait for it to go, then start this build's.
            Ok(Response::Fallback(Fallback::WrongBuild)) if attempt == 0 => wait_gone(&dir),
            Ok(other) => return Err(format!("the daemon answered {other:?}")),
            Err(e) => return Err(e.to_string()),
        }
    }
    Err("the daemon kept answering for another build".into())
}

fn wait_gone(dir: &Path) {
    client::wait_stopped(dir, Duration::from_secs(60));
}

/// The daemon's handler: cudafe++ runs for clients, units cached by path.
pub struct Server {
    units: Mutex<Lru<Unit>>,
    /// Shared by the units' databases: the trees of the headers they have
    /// in common, and what `hir` lowers from them, are held once.
    pool: Arc<GreenPool>,
}

impl Server {
    pub fn new(max_units: usize) -> Server {
        Server { units: Mutex::new(Lru::new(max_units)), pool: Arc::default() }
    }

    fn units(&self) -> std::sync::MutexGuard<'_, Lru<Unit>> {
        self.units.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl cufront_daemon::server::Handler for Server {
    fn compile(&self, req: CompileRequest, client: cufront_daemon::server::Liveness) -> Response {
        let parsed = cmdline::parse(&req.argv);
        // The client printed the early messages itself.
        let cmdline::Outcome::Run(cfg) = parsed.outcome else {
            return Response::Fallback(Fallback::NotDelegable);
        };
        let cwd = PathBuf::from(OsString::from_vec(req.cwd));
        if cfg.input == "-" || !cwd.is_absolute() {
            return Response::Fallback(Fallback::NotDelegable);
        }
        let key = String::from_utf8_lossy(cwd.join(&cfg.input).as_os_str().as_bytes()).into_owned();
        let unit = self.units().take(&key);
        let env = req.env.into_iter().map(|(k, v)| (OsString::from_vec(k), OsString::from_vec(v)));
        let mut ctx = Context::client(cwd, req.pid, env, req.stderr_is_tty, unit);
        ctx.set_liveness(Box::new(move || client.connected()));
        ctx.set_pool(self.pool.clone());
        let mut stderr = Vec::new();
        let status = super::run::run_in(&cfg, &mut ctx, &mut stderr);
        if let Some(unit) = ctx.unit.take() {
            let evicted = self.units().put(key, unit);
            // Freed outside the lock.
            drop(evicted);
        }
        Response::Compiled { status, stdout: Vec::new(), stderr }
    }

    fn units(&self) -> (u32, u32) {
        let u = self.units();
        (u.len() as u32, u.cap() as u32)
    }
}
