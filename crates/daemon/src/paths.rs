//! Where the server of a user lives: a runtime directory of the user's own
//! (mode 0700) holding `daemon.sock` (0600) and `daemon.lock` (held by the
//! running server: one per user and directory).
//!
//! The directory is `$CUFRONT_DAEMON_DIR` when set (tests, several
//! independent daemons), else `$XDG_RUNTIME_DIR/cufront`, else
//! `/tmp/cufront-<uid>`. Before use it must be a real directory (not a
//! symbolic link) owned by the user with no group or other permissions: in
//! a shared `/tmp` another user could have made it first.

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

#[derive(Debug)]
pub enum DirError {
    Create(PathBuf, std::io::Error),
    NotADirectory(PathBuf),
    WrongOwner { path: PathBuf, owner: u32 },
    TooOpen { path: PathBuf, mode: u32 },
}

impl std::fmt::Display for DirError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DirError::Create(p, e) => write!(f, "cannot create {}: {e}", p.display()),
            DirError::NotADirectory(p) => write!(f, "{} is not a directory", p.display()),
            DirError::WrongOwner { path, owner } => {
                write!(f, "{} belongs to uid {owner}, not to this user", path.display())
            }
            DirError::TooOpen { path, mode } => {
                write!(f, "{} has mode {mode:o}: group and others must have no access", path.display())
            }
        }
    }
}

pub fn uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The runtime directory the environment names (not created).
pub fn runtime_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CUFRONT_DAEMON_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("cufront");
    }
    PathBuf::from(format!("/tmp/cufront-{}", uid()))
}

pub fn socket_path(dir: &Path) -> PathBuf {
    dir.join("daemon.sock")
}

pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join("daemon.lock")
}

/// Creates `dir` (0700) when missing and checks that it is the user's own
/// and closed to others.
pub fn ensure_private_dir(dir: &Path) -> Result<(), DirError> {
    if let Some(parent) = dir.parent() {
        // The parents are ordinary directories (e.g. $XDG_RUNTIME_DIR).
        let _ = std::fs::create_dir_all(parent);
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(DirError::Create(dir.to_path_buf(), e)),
    }
    check_private_dir(dir)
}

/// Checks without creating: a directory (not a link) owned by the user, mode
/// without group/other bits.
pub fn check_private_dir(dir: &Path) -> Result<(), DirError> {
    let meta = std::fs::symlink_metadata(dir).map_err(|e| DirError::Create(dir.to_path_buf(), e))?;
    if !meta.is_dir() {
        return Err(DirError::NotADirectory(dir.to_path_buf()));
    }
    if meta.uid() != uid() {
        return Err(DirError::WrongOwner { path: dir.to_path_buf(), owner: meta.uid() });
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(DirError::TooOpen { path: dir.to_path_buf(), mode });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_private_and_refuses_open_dirs() {
        let base = std::env::temp_dir().join(format!("cufront-paths-{}", std::process::id()));
        let dir = base.join("d");
        ensure_private_dir(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(matches!(ensure_private_dir(&dir), Err(DirError::TooOpen { mode: 0o755, .. })));
        let link = base.join("l");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        assert!(matches!(ensure_private_dir(&link), Err(DirError::NotADirectory(_))));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
