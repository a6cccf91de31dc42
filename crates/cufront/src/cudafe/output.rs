//! Output files are written whole or not at all: the bytes go to a temporary
//! file in the destination's directory (so the rename cannot cross file
//! systems), which is then renamed over the destination. The rename makes
//! the write atomic for every reader; it is not forced to disk (no `fsync`):
//! these are a compilation's intermediate files, which a crash makes stale
//! anyway, and a sync costs a large part of a small compilation's time.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically. On any error the destination is left
/// as it was and the temporary file is removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| std::io::Error::other("output path has no file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    // Unique per write, not only per process: a daemon writes for several
    // clients at once.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tmp_name.push(format!(".cufront-{}-{n}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = super::signals::while_writing(&tmp, || {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        std::fs::rename(&tmp, path)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("cufront-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("a.int.c");
        std::fs::write(&target, "old").unwrap();
        write_atomically(&target, b"new contents").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new contents");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("a.int.c")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failure_leaves_destination_untouched() {
        let missing = std::env::temp_dir().join("cufront-no-such-dir-xyz").join("o.cpp");
        assert!(write_atomically(&missing, b"x").is_err());
        assert!(!missing.exists());
    }
}
