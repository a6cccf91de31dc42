//! Thread-local recursion guards restored on every way out.
//!
//! hir bounds recursion across queries with thread-local state (see
//! `docs/architecture.md`); a query cancelled by an edit (the daemon, the
//! editor) unwinds through it, so the state must be put back by a drop
//! guard, not by the code after the call: otherwise the thread would serve
//! its next request deeper than it started.

use std::cell::{Cell, RefCell};
use std::thread::LocalKey;

/// Runs `f` with `key` set to `value`; the previous value is put back on
/// every way out.
pub(crate) fn with_cell<T: Copy + 'static, R>(key: &'static LocalKey<Cell<T>>, value: T, f: impl FnOnce() -> R) -> R {
    struct Restore<T: Copy + 'static>(&'static LocalKey<Cell<T>>, T);
    impl<T: Copy + 'static> Drop for Restore<T> {
        fn drop(&mut self) {
            self.0.with(|c| c.set(self.1));
        }
    }
    let _restore = Restore(key, key.with(Cell::get));
    key.with(|c| c.set(value));
    f()
}

/// Runs `f` with `item` pushed on the thread's stack `key`; popped on every
/// way out.
pub(crate) fn with_pushed<T: 'static, R>(key: &'static LocalKey<RefCell<Vec<T>>>, item: T, f: impl FnOnce() -> R) -> R {
    struct Pop<T: 'static>(&'static LocalKey<RefCell<Vec<T>>>);
    impl<T: 'static> Drop for Pop<T> {
        fn drop(&mut self) {
            self.0.with(|s| s.borrow_mut().pop());
        }
    }
    key.with(|s| s.borrow_mut().push(item));
    let _pop = Pop(key);
    f()
}
