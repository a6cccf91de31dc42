//! cufront-toolkit: the real CUDA toolkit, found or fetched, and its tools run
//! exactly as `nvcc` runs them.
//!
//! The toolkit is cufront's oracle: differential tests and benchmarks compare
//! against its `cudafe++`, `cicc` and the host compiler it drives. The oracle is
//! pinned to CUDA 13.0 (`nvcc` V13.0.88), fetched as PyPI wheels by package name
//! with `pip download` when no matching installation is found.
//!
//! Invariants:
//! - A [`Toolkit`] always points at a tree that passed [`verify::check_tree`]
//!   (required files present, `nvcc --version` answered).
//! - The fetch cache is written whole or not at all: wheels are unpacked into a
//!   private temporary folder, verified, marked complete and renamed into place,
//!   under a file lock, so concurrent test processes fetch at most once.
//! - Tool command lines come from `nvcc --dryrun`, never from our own guess of
//!   them, so "as nvcc does" stays true when nvcc's flags change.
//! - No salsa, no parsing of C++: this crate only finds files and runs processes.

pub mod fetch;
pub mod locate;
pub mod pipeline;
pub mod verify;

use std::fmt;
use std::path::{Path, PathBuf};

pub use crate::fetch::{PINNED, fetch_pinned};
pub use crate::locate::{Locate, find, find_or_fetch};
pub use crate::pipeline::{CompileOptions, Pipeline, Std, Step, StepKind};

/// A verified CUDA toolkit installation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolkit {
    /// The folder holding `bin/nvcc`, `include/`, `nvvm/`.
    root: PathBuf,
    /// `nvcc`'s own version, e.g. `13.0.88`.
    version: String,
}

impl Toolkit {
    /// Checks the tree at `root` and wraps it.
    pub fn open(root: &Path) -> Result<Toolkit, Error> {
        let version = verify::check_tree(root)?;
        Ok(Toolkit { root: root.to_path_buf(), version })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    /// `nvcc`'s version as `MAJOR.MINOR.BUILD`, e.g. `13.0.88`.
    pub fn version(&self) -> &str {
        &self.version
    }
    /// True when this is the release cufront is checked against.
    pub fn is_pinned(&self) -> bool {
        self.version == PINNED.nvcc_version
    }
    pub fn nvcc(&self) -> PathBuf {
        self.root.join("bin/nvcc")
    }
    pub fn cudafe(&self) -> PathBuf {
        self.root.join("bin/cudafe++")
    }
    pub fn cicc(&self) -> PathBuf {
        self.root.join("nvvm/bin/cicc")
    }
    pub fn include_dir(&self) -> PathBuf {
        self.root.join("include")
    }
}

/// Why a toolkit could not be found, fetched or run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// No toolkit where we looked (the message says where).
    NotFound(String),
    /// A tree exists but is incomplete or the wrong release.
    Invalid(String),
    /// Fetching failed: pip missing, network down, bad archive.
    Fetch(String),
    /// Running a tool failed (the message holds its command and stderr).
    Tool(String),
    /// A file system operation failed.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotFound(m) => write!(f, "CUDA toolkit not found: {m}"),
            Error::Invalid(m) => write!(f, "invalid CUDA toolkit: {m}"),
            Error::Fetch(m) => write!(f, "cannot fetch the CUDA toolkit: {m}"),
            Error::Tool(m) => write!(f, "{m}"),
            Error::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}

pub(crate) fn io_err(what: impl fmt::Display, path: &Path, e: std::io::Error) -> Error {
    Error::Io(format!("{what} {}: {e}", path.display()))
}
