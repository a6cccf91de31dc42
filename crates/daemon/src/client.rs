//! The client side: one request over a fresh connection, and starting a
//! server when none answers.
//!
//! The client trusts a socket only in a directory that passes
//! [`paths::check_private_dir`] and only when the kernel says the peer runs
//! as the same user: another user cannot impersonate the server.

use std::io;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::paths::{self, DirError};
use crate::peer;
use crate::protocol::{self, ReadError, Request, Response};

#[derive(Debug)]
pub enum ClientError {
    /// No server listens (no socket, or a stale one).
    NotRunning,
    Dir(DirError),
    /// The peer is not this user's process.
    NotOurs,
    Io(io::Error),
    Read(ReadError),
    /// A started server did not come up in time.
    StartTimedOut,
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::NotRunning => write!(f, "no cufront daemon is running"),
            ClientError::Dir(e) => write!(f, "{e}"),
            ClientError::NotOurs => write!(f, "the daemon socket belongs to another user"),
            ClientError::Io(e) => write!(f, "{e}"),
            ClientError::Read(e) => write!(f, "bad reply: {e}"),
            ClientError::StartTimedOut => write!(f, "the daemon did not start in time"),
        }
    }
}

/// Connects to the server of `dir`.
pub fn connect(dir: &Path) -> Result<UnixStream, ClientError> {
    match paths::check_private_dir(dir) {
        Ok(()) => {}
        Err(DirError::Create(_, e)) if e.kind() == io::ErrorKind::NotFound => return Err(ClientError::NotRunning),
        Err(e) => return Err(ClientError::Dir(e)),
    }
    let stream = match UnixStream::connect(paths::socket_path(dir)) {
        Ok(s) => s,
        Err(e) if matches!(e.kind(), io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused) => {
            return Err(ClientError::NotRunning);
        }
        Err(e) => return Err(ClientError::Io(e)),
    };
    match peer::peer_cred(&stream) {
        Ok(c) if c.uid == paths::uid() => Ok(stream),
        Ok(_) => Err(ClientError::NotOurs),
        Err(e) => Err(ClientError::Io(e)),
    }
}

/// Sends `req` and waits for the response (no timeout: a compilation takes
/// as long as it takes; the server bounds its own waits).
pub fn request(dir: &Path, req: &Request) -> Result<Response, ClientError> {
    let mut stream = connect(dir)?;
    protocol::write_request(&mut stream, req).map_err(ClientError::Io)?;
    protocol::read_response(&mut stream).map_err(ClientError::Read)
}

/// Is a server holding the lock of `dir` (serving, or finishing the
/// compilations in flight after a stop)?
pub fn server_holds_lock(dir: &Path) -> bool {
    let Ok(f) = std::fs::File::open(paths::lock_path(dir)) else { return false };
    match f.try_lock_shared() {
        Ok(()) => {
            let _ = f.unlock();
            false
        }
        Err(std::fs::TryLockError::WouldBlock) => true,
        Err(std::fs::TryLockError::Error(_)) => false,
    }
}

/// Waits up to `timeout` for the server of `dir` to be gone (its lock
/// released: a new server can start); whether it is.
pub fn wait_stopped(dir: &Path, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while server_holds_lock(dir) {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Makes sure a server answers in `dir`: when none does, `start` launches
/// one (a detached process; concurrent starters race harmlessly, the lock
/// lets one server win) and this waits up to `wait` for it to accept.
pub fn ensure_running(dir: &Path, start: impl FnOnce() -> io::Result<()>, wait: Duration) -> Result<(), ClientError> {
    match connect(dir) {
        Ok(_) => return Ok(()),
        Err(ClientError::NotRunning) => {}
        Err(e) => return Err(e),
    }
    paths::ensure_private_dir(dir).map_err(ClientError::Dir)?;
    start().map_err(ClientError::Io)?;
    let deadline = Instant::now() + wait;
    loop {
        match connect(dir) {
            Ok(_) => return Ok(()),
            Err(ClientError::NotRunning) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            Err(ClientError::NotRunning) => return Err(ClientError::StartTimedOut),
            Err(e) => return Err(e),
        }
    }
}
