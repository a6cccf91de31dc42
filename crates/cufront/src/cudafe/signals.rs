//! SIGINT and SIGTERM as cudafe++ answers them: `\nCompilation terminated.\n`
//! on stderr and exit status 4 (checked on the real binary; other signals
//! end it by the signal). An output file being written at that moment is a
//! temporary (`output::write_atomically`), which the handler removes: an
//! interrupted run leaves no partial file.

use std::ffi::CString;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The temporary file being written, or null: removed by the handler.
static PENDING: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

const MESSAGE: &[u8] = b"\nCompilation terminated.\n";

extern "C" fn terminate(_: libc::c_int) {
    // Only async-signal-safe calls: unlink, write, _exit.
    let pending = PENDING.load(Ordering::SeqCst);
    unsafe {
        if !pending.is_null() {
            libc::unlink(pending);
        }
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(4);
    }
}

/// Installs the handlers (for the rest of the process).
pub fn install() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = terminate as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

/// Blocks SIGINT and SIGTERM in the calling thread, so that they are
/// handled by the thread that writes stderr. Run on another thread, the
/// handler's message could be followed by the rest of a diagnostic that the
/// writing thread was still putting into a full pipe (a write larger than
/// `PIPE_BUF` is not atomic); run on the writer, it interrupts that write.
/// Call it at the start of every thread that does not write stderr.
pub fn leave_to_the_writer() {
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// Runs `f` with `path` as the temporary file the handler removes.
pub fn while_writing<T>(path: &std::path::Path, f: impl FnOnce() -> T) -> T {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else { return f() };
    let raw = c.into_raw();
    PENDING.store(raw, Ordering::SeqCst);
    let r = f();
    PENDING.store(std::ptr::null_mut(), Ordering::SeqCst);
    // Not freed while the handler could still read it.
    drop(unsafe { CString::from_raw(raw) });
    r
}
