//! The server loop: one listener in the user's runtime directory, a thread
//! per connection (at most [`Options::max_connections`] at once; more get a
//! `Busy` error reply), one request and one response per connection.
//!
//! What a connection can do to the server is bounded: its peer uid must be
//! the server's, its frame is size-checked and decoded into typed errors
//! (answered, never panicking), its reads and writes time out, and a panic
//! of the handler is caught and answered with [`Fallback::Panicked`] (the
//! client then runs in-process and reproduces it there). A client that dies
//! mid-request only makes its thread's final write fail.
//!
//! Stopping (a `Stop` request, a client of another build, or the idle
//! timeout) shuts the listening socket down, removes the socket file, waits
//! for the connections in flight, and returns from [`serve`]; the lock file
//! is released with it.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::paths::{self, DirError};
use crate::peer;
use crate::protocol::{self, CompileRequest, ErrorKind, Fallback, ReadError, Request, Response, StatusInfo};

/// What the server computes; implemented by the cufront binary.
pub trait Handler: Send + Sync + 'static {
    /// Runs one compilation: [`Response::Compiled`] or a [`Response::Fallback`].
    /// `client` tells whether the client is still connected (a run whose
    /// client was killed or interrupted writes no outputs, as in-process).
    fn compile(&self, req: CompileRequest, client: Liveness) -> Response;
    /// (cached units, their cap), for the status reply.
    fn units(&self) -> (u32, u32);
}

/// Whether the client of a request is still connected: its end of the
/// socket not closed (it waits for the reply without writing, so a hang-up
/// is the only event). Cheap (one `poll` with no wait).
#[derive(Clone)]
pub struct Liveness(Arc<UnixStream>);

impl Liveness {
    pub fn connected(&self) -> bool {
        let mut p = libc::pollfd { fd: self.0.as_raw_fd(), events: libc::POLLRDHUP, revents: 0 };
        // SAFETY: one valid pollfd; the fd stays open while `self` lives.
        let n = unsafe { libc::poll(&mut p, 1, 0) };
        !(n > 0 && p.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0)
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub dir: PathBuf,
    /// The build identity clients must match.
    pub build: String,
    /// Exit after this long without a connection.
    pub idle_exit: Option<Duration>,
    pub max_connections: usize,
    /// Stack of a connection thread (a compilation runs on it).
    pub stack_size: usize,
}

#[derive(Debug)]
pub enum ServeError {
    Dir(DirError),
    /// Another server holds the lock of this directory.
    AlreadyRunning,
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Dir(e) => write!(f, "{e}"),
            ServeError::AlreadyRunning => write!(f, "a cufront daemon is already running"),
            ServeError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

struct Shared {
    opts: Options,
    handler: Arc<dyn Handler>,
    started: Instant,
    requests: AtomicU64,
    active: AtomicUsize,
    stopping: AtomicBool,
    listener_fd: AtomicI32,
    last_activity: Mutex<Instant>,
}

/// Serves until stopped. Returns `AlreadyRunning` when another server holds
/// the directory's lock (one server per user and directory).
pub fn serve(opts: Options, handler: Arc<dyn Handler>) -> Result<(), ServeError> {
    let dir = opts.dir.clone();
    paths::ensure_private_dir(&dir).map_err(ServeError::Dir)?;
    let lock_path = paths::lock_path(&dir);
    let lock = std::fs::OpenOptions::new()
        .mode(0o600)
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| ServeError::Io(lock_path.clone(), e))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Err(ServeError::AlreadyRunning),
        Err(std::fs::TryLockError::Error(e)) => return Err(ServeError::Io(lock_path, e)),
    }
    let sock = paths::socket_path(&dir);
    // Under the lock, a socket file is a dead server's.
    let _ = std::fs::remove_file(&sock);
    let listener = bind_private(&sock)?;
    let shared = Arc::new(Shared {
        opts,
        handler,
        started: Instant::now(),
        requests: AtomicU64::new(0),
        active: AtomicUsize::new(0),
        stopping: AtomicBool::new(false),
        listener_fd: AtomicI32::new(listener.as_raw_fd()),
        last_activity: Mutex::new(Instant::now()),
    });
    if let Some(idle) = shared.opts.idle_exit {
        let s = shared.clone();
        std::thread::spawn(move || idle_watch(&s, idle));
    }
    for conn in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = conn else { continue };
        *shared.last_activity.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        if shared.active.load(Ordering::SeqCst) >= shared.opts.max_connections {
            let mut stream = stream;
            let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
            let busy = Response::Error { kind: ErrorKind::Busy, message: "too many connections".into() };
            let _ = protocol::write_response(&mut stream, &busy);
            continue;
        }
        shared.active.fetch_add(1, Ordering::SeqCst);
        let s = shared.clone();
        let spawned = std::thread::Builder::new().name("cufront-conn".into()).stack_size(s.opts.stack_size).spawn({
            let s = s.clone();
            move || {
                connection(&s, stream);
                s.active.fetch_sub(1, Ordering::SeqCst);
                *s.last_activity.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
            }
        });
        if spawned.is_err() {
            s.active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    // Stopped: no new connections; let those in flight finish (bounded).
    let _ = std::fs::remove_file(&sock);
    let deadline = Instant::now() + Duration::from_secs(60);
    while shared.active.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(lock);
    Ok(())
}

/// Binds the socket with mode 0600 from the start (the umask is set around
/// the bind: no moment where the socket is open wider).
fn bind_private(sock: &Path) -> Result<UnixListener, ServeError> {
    // SAFETY: umask has no preconditions; the server is single-threaded here.
    let old = unsafe { libc::umask(0o177) };
    let bound = UnixListener::bind(sock);
    unsafe { libc::umask(old) };
    bound.map_err(|e| ServeError::Io(sock.to_path_buf(), e))
}

fn stop(shared: &Shared) {
    if shared.stopping.swap(true, Ordering::SeqCst) {
        return;
    }
    let _ = std::fs::remove_file(paths::socket_path(&shared.opts.dir));
    // Wakes the accept loop: accept on a shut-down listener fails at once.
    // SAFETY: the fd is the listener's, open until `serve` returns, which
    // happens only after this wake-up.
    unsafe { libc::shutdown(shared.listener_fd.load(Ordering::SeqCst), libc::SHUT_RDWR) };
}

fn idle_watch(shared: &Shared, idle: Duration) {
    loop {
        std::thread::sleep(Duration::from_millis(500).min(idle));
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        let last = *shared.last_activity.lock().unwrap_or_else(|p| p.into_inner());
        if shared.active.load(Ordering::SeqCst) == 0 && last.elapsed() >= idle {
            stop(shared);
            return;
        }
    }
}

fn connection(shared: &Shared, mut stream: UnixStream) {
    let timeout = Some(Duration::from_secs(60));
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.set_write_timeout(timeout);
    match peer::peer_cred(&stream) {
        Ok(c) if c.uid == paths::uid() => {}
        _ => {
            let refused = Response::Error { kind: ErrorKind::PeerRefused, message: "peer is another user".into() };
            let _ = protocol::write_response(&mut stream, &refused);
            close_after_error(stream);
            return;
        }
    }
    let request = match protocol::read_request(&mut stream) {
        Ok(r) => r,
        Err(ReadError::Decode(e)) => {
            let malformed = Response::Error { kind: ErrorKind::Malformed, message: e.to_string() };
            let _ = protocol::write_response(&mut stream, &malformed);
            close_after_error(stream);
            return;
        }
        // Closed, or the client died or stalled mid-frame: nobody to answer.
        Err(ReadError::Closed | ReadError::Io(_)) => return,
    };
    let response = match request {
        Request::Compile(req) => {
            if shared.stopping.load(Ordering::SeqCst) {
                Response::Fallback(Fallback::ShuttingDown)
            } else if req.build != shared.opts.build {
                // A newer (or older) cufront is in use: it must not get this
                // server's answers; stop so that the client can start its own.
                stop(shared);
                Response::Fallback(Fallback::WrongBuild)
            } else {
                shared.requests.fetch_add(1, Ordering::Relaxed);
                let handler = shared.handler.clone();
                match stream.try_clone() {
                    Ok(s) => {
                        let client = Liveness(Arc::new(s));
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || handler.compile(req, client)))
                            .unwrap_or(Response::Fallback(Fallback::Panicked))
                    }
                    Err(_) => Response::Error { kind: ErrorKind::Busy, message: "cannot watch the connection".into() },
                }
            }
        }
        Request::Status => Response::Status(status(shared)),
        Request::Stop => {
            stop(shared);
            Response::Stopping
        }
    };
    // The client may be gone (killed mid-request): nothing to do then.
    let _ = protocol::write_response(&mut stream, &response);
}

/// Closing a socket with unread input resets it, and the peer may lose the
/// reply: the rest of what it sends is read and dropped first (bounded in
/// bytes and time).
fn close_after_error(mut stream: UnixStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = io::copy(&mut io::Read::take(&mut stream, u64::from(protocol::MAX_REQUEST)), &mut io::sink());
}

fn status(shared: &Shared) -> StatusInfo {
    let (units, max_units) = shared.handler.units();
    StatusInfo {
        pid: std::process::id(),
        build: shared.opts.build.clone(),
        uptime_ms: shared.started.elapsed().as_millis() as u64,
        requests: shared.requests.load(Ordering::Relaxed),
        units,
        max_units,
        rss_bytes: rss_bytes(),
    }
}

/// The resident set size of this process (`VmRSS`), 0 where unknown.
pub fn rss_bytes() -> u64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else { return 0 };
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}
