//! Where a toolkit comes from, in order: an explicit path, `CUDA_HOME`, `nvcc`
//! on `PATH`, the fetch cache, and (when allowed) a fresh fetch.

use std::path::{Path, PathBuf};

use crate::{Error, Toolkit, fetch};

/// How to look for a toolkit.
#[derive(Debug, Clone, Default)]
pub struct Locate {
    /// `--cuda-path`: used as given, no fallback (the user asked for it).
    pub cuda_path: Option<PathBuf>,
    /// Accept only the pinned release from `CUDA_HOME`/`PATH`; a different
    /// installed release is skipped in favour of the cache. Differential
    /// tests need this; a user checking a file does not.
    pub require_pinned: bool,
}

/// Finds a toolkit without downloading anything.
pub fn find(opts: &Locate) -> Result<Toolkit, Error> {
    find_installed(opts)?.map_or_else(
        || {
            fetch::cached_pinned()?.ok_or_else(|| {
                Error::NotFound(
                    "no --cuda-path, no usable CUDA_HOME, no nvcc on PATH, nothing in the cache \
                     (run `cufront toolkit fetch`)"
                        .into(),
                )
            })
        },
        Ok,
    )
}

/// Finds a toolkit, fetching the pinned one into the cache when none is found.
pub fn find_or_fetch(opts: &Locate) -> Result<Toolkit, Error> {
    if let Some(tk) = find_installed(opts)? {
        return Ok(tk);
    }
    fetch::fetch_pinned()
}

/// The explicit path (an error if it is unusable), else `CUDA_HOME`, else the
/// `nvcc` on `PATH`.
fn find_installed(opts: &Locate) -> Result<Option<Toolkit>, Error> {
    if let Some(path) = &opts.cuda_path {
        return open_root(path).map(Some);
    }
    let mut candidates = Vec::new();
    if let Some(home) = std::env::var_os("CUDA_HOME").filter(|v| !v.is_empty()) {
        candidates.push(("CUDA_HOME", PathBuf::from(home)));
    }
    if let Some(root) = nvcc_on_path() {
        candidates.push(("PATH", root));
    }
    for (origin, root) in candidates {
        match Toolkit::open(&root) {
            Ok(tk) if tk.is_pinned() || !opts.require_pinned => return Ok(Some(tk)),
            Ok(tk) => eprintln!(
                "cufront: skipping CUDA {} from {origin} ({}): tests need {}",
                tk.version(),
                root.display(),
                fetch::PINNED.nvcc_version
            ),
            Err(e) => eprintln!("cufront: skipping {origin} toolkit: {e}"),
        }
    }
    Ok(None)
}

/// Accepts either the toolkit root or its `bin/nvcc`.
fn open_root(path: &Path) -> Result<Toolkit, Error> {
    let root = if path.is_file() { path.parent().and_then(Path::parent).unwrap_or(path) } else { path };
    Toolkit::open(root)
}

/// The root above the first `nvcc` on `PATH` (symlinks resolved, so
/// `/usr/bin/nvcc -> /opt/cuda/bin/nvcc` gives `/opt/cuda`).
fn nvcc_on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let nvcc = std::env::split_paths(&path).map(|d| d.join("nvcc")).find(|p| p.is_file())?;
    let real = nvcc.canonicalize().ok()?;
    Some(real.parent()?.parent()?.to_path_buf())
}
