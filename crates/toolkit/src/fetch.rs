//! Fetching the pinned toolkit: CUDA 13.0 wheels from PyPI, by package name,
//! with the user's own `pip`, unpacked into the user cache.
//!
//! Layout: `<cache>/cufront/cuda-13.0.88/` holds the unpacked wheels as pip
//! would install them (`nvidia/cu13/{bin,include,lib,nvvm}` plus the
//! `.dist-info` folders) and the marker file `.cufront-complete`. The toolkit
//! root is `nvidia/cu13`. A tree without the marker (unpacked by hand, or by an
//! older cufront) is adopted when it verifies, and replaced when it does not.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{Error, Toolkit, io_err, verify};

/// The release cufront is checked against.
pub struct Pinned {
    /// `nvcc --version`'s `V...` string.
    pub nvcc_version: &'static str,
    /// Folder name under the cache.
    pub cache_name: &'static str,
    /// Wheels as `(package, version)`, fetched without dependencies.
    pub wheels: &'static [(&'static str, &'static str)],
    /// Where the toolkit root lies inside the unpacked wheels.
    pub root_in_tree: &'static str,
}

pub const PINNED: Pinned = Pinned {
    nvcc_version: "13.0.88",
    cache_name: "cuda-13.0.88",
    wheels: &[
        ("nvidia-cuda-nvcc", "13.0.88"),
        ("nvidia-cuda-crt", "13.0.88"),
        ("nvidia-cuda-runtime", "13.0.96"),
        ("nvidia-nvvm", "13.0.88"),
        ("nvidia-cuda-cccl", "13.0.85"),
    ],
    root_in_tree: "nvidia/cu13",
};

/// Files the pinned wheels bring beyond [`verify::REQUIRED`]: one from each
/// wheel, so a tree missing a wheel is caught.
const PINNED_EXTRA: &[&str] = &[
    "bin/ptxas",
    "bin/fatbinary",
    "bin/crt/link.stub",
    "nvvm/libdevice/libdevice.10.bc",
    "include/cuda_runtime_api.h",
    "lib/libcudart_static.a",
    "include/cccl/thrust/version.h",
    "include/cccl/cub/cub.cuh",
    "include/cccl/cuda/std/atomic",
];

const MARKER: &str = ".cufront-complete";

/// `$XDG_CACHE_HOME/cufront`, else `$HOME/.cache/cufront`.
pub fn cache_root() -> Result<PathBuf, Error> {
    let base = match std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        Some(x) => PathBuf::from(x),
        None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
            Some(h) => PathBuf::from(h).join(".cache"),
            None => {
                return Err(Error::NotFound("neither XDG_CACHE_HOME nor HOME is set; cannot place the cache".into()));
            }
        },
    };
    Ok(base.join("cufront"))
}

/// The folder the pinned wheels unpack into.
pub fn pinned_dir() -> Result<PathBuf, Error> {
    Ok(cache_root()?.join(PINNED.cache_name))
}

/// The pinned toolkit if it is already in the cache (adopting a complete tree
/// that has no marker yet). Never downloads.
pub fn cached_pinned() -> Result<Option<Toolkit>, Error> {
    let dir = pinned_dir()?;
    if let Some(tk) = open_marked(&dir) {
        return Ok(Some(tk));
    }
    if !dir.exists() {
        return Ok(None);
    }
    let _lock = lock_cache()?;
    Ok(adopt_or_open(&dir))
}

/// The pinned toolkit, fetched into the cache unless already there.
pub fn fetch_pinned() -> Result<Toolkit, Error> {
    let dir = pinned_dir()?;
    if let Some(tk) = open_marked(&dir) {
        return Ok(tk);
    }
    let _lock = lock_cache()?;
    // Whoever held the lock before us may have finished the job.
    if let Some(tk) = adopt_or_open(&dir) {
        return Ok(tk);
    }
    if dir.exists() {
        progress(&format!("{} is incomplete; replacing it", dir.display()));
        let stale = dir.with_file_name(format!("{}.stale-{}", PINNED.cache_name, std::process::id()));
        fs::rename(&dir, &stale).map_err(|e| io_err("cannot move aside", &dir, e))?;
        fs::remove_dir_all(&stale).map_err(|e| io_err("cannot remove", &stale, e))?;
    }
    remove_leftovers(&dir);
    let partial = dir.with_file_name(format!("{}.partial-{}", PINNED.cache_name, std::process::id()));
    let result = download_and_unpack(&partial)
        .and_then(|()| fs::rename(&partial, &dir).map_err(|e| io_err("cannot move the fetched toolkit to", &dir, e)));
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&partial);
        return Err(e);
    }
    let tk = Toolkit::open(&dir.join(PINNED.root_in_tree))?;
    progress(&format!("CUDA {} ready at {}", tk.version(), tk.root().display()));
    Ok(tk)
}

/// Removes what an interrupted fetch left beside `dir` (`.partial-PID`,
/// `.stale-PID`). Only called under the lock, so no live fetch owns them.
fn remove_leftovers(dir: &Path) {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else { return };
    let Ok(entries) = fs::read_dir(parent) else { return };
    let prefix = format!("{}.", name.to_string_lossy());
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file_name.strip_prefix(&prefix) else { continue };
        if rest.starts_with("partial-") || rest.starts_with("stale-") {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

fn progress(msg: &str) {
    eprintln!("cufront: {msg}");
}

/// An exclusive lock on `<cache>/<name>.lock`, held until dropped. Blocks
/// while another process fetches, and says so.
fn lock_cache() -> Result<File, Error> {
    let root = cache_root()?;
    fs::create_dir_all(&root).map_err(|e| io_err("cannot create", &root, e))?;
    let path = root.join(format!("{}.lock", PINNED.cache_name));
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| io_err("cannot open lock file", &path, e))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            progress("waiting for another process fetching the CUDA toolkit");
            file.lock().map_err(|e| io_err("cannot lock", &path, e))?;
        }
        Err(fs::TryLockError::Error(e)) => return Err(io_err("cannot lock", &path, e)),
    }
    Ok(file)
}

fn open_marked(dir: &Path) -> Option<Toolkit> {
    if !dir.join(MARKER).is_file() {
        return None;
    }
    Toolkit::open(&dir.join(PINNED.root_in_tree)).ok()
}

/// Under the lock: the marked tree, or an unmarked one that checks out (then
/// finished and marked), or `None`.
fn adopt_or_open(dir: &Path) -> Option<Toolkit> {
    if let Some(tk) = open_marked(dir) {
        return Some(tk);
    }
    if !dir.exists() {
        return None;
    }
    match finish_tree(dir) {
        Ok(tk) => {
            progress(&format!("adopted the CUDA {} toolkit at {}", tk.version(), tk.root().display()));
            Some(tk)
        }
        Err(_) => None,
    }
}

fn download_and_unpack(dest: &Path) -> Result<(), Error> {
    let wheels_dir = dest.join(".wheels");
    fs::create_dir_all(&wheels_dir).map_err(|e| io_err("cannot create", &wheels_dir, e))?;
    let python = find_python()?;
    let specs: Vec<String> = PINNED.wheels.iter().map(|(name, v)| format!("{name}=={v}")).collect();
    progress(&format!(
        "fetching the CUDA {} toolkit ({}) with pip into {} (about 105 MB of wheels, 270 MB unpacked; once)",
        PINNED.nvcc_version,
        specs.join(" "),
        dest.display()
    ));
    let status = Command::new(&python)
        .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--dest"])
        .arg(&wheels_dir)
        .args(&specs)
        .stdin(Stdio::null())
        // pip reports progress on stdout; ours goes to stderr.
        .stdout(Stdio::from(std::io::stderr()))
        .status()
        .map_err(|e| Error::Fetch(format!("cannot run {python} -m pip: {e}")))?;
    if !status.success() {
        return Err(Error::Fetch(format!(
            "`{python} -m pip download` failed ({status}); is the network (PyPI) reachable? \
             Alternatively pass --cuda-path or set CUDA_HOME to a CUDA {} installation",
            PINNED.nvcc_version
        )));
    }
    let mut wheels: Vec<PathBuf> = fs::read_dir(&wheels_dir)
        .map_err(|e| io_err("cannot read", &wheels_dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    wheels.sort();
    if wheels.len() != PINNED.wheels.len() {
        return Err(Error::Fetch(format!(
            "pip brought {} wheels, expected {}: {:?}",
            wheels.len(),
            PINNED.wheels.len(),
            wheels
        )));
    }
    for whl in &wheels {
        progress(&format!("unpacking {}", whl.file_name().unwrap_or_default().to_string_lossy()));
        let out = Command::new(&python)
            .args(["-m", "zipfile", "-e"])
            .arg(whl)
            .arg(dest)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Error::Fetch(format!("cannot run {python} -m zipfile: {e}")))?;
        if !out.status.success() {
            return Err(Error::Fetch(format!(
                "cannot unpack {}: {}",
                whl.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
    }
    fs::remove_dir_all(&wheels_dir).map_err(|e| io_err("cannot remove", &wheels_dir, e))?;
    finish_tree(dest).map(|_| ())
}

/// Makes an unpacked tree usable (zip drops the executable bits; nvcc links
/// with `-L<root>/lib64`, which the wheels do not have), verifies it is the
/// pinned release, and writes the marker.
fn finish_tree(dir: &Path) -> Result<Toolkit, Error> {
    let root = dir.join(PINNED.root_in_tree);
    let mut missing = verify::missing_files(&root, verify::REQUIRED);
    missing.extend(verify::missing_files(&root, PINNED_EXTRA));
    if !missing.is_empty() {
        return Err(Error::Invalid(format!("{} lacks {}", root.display(), missing.join(", "))));
    }
    for bin in ["bin", "nvvm/bin"] {
        make_executable(&root.join(bin))?;
    }
    link_lib64(&root)?;
    let tk = Toolkit::open(&root)?;
    if !tk.is_pinned() {
        return Err(Error::Invalid(format!(
            "{} is CUDA {}, expected {}",
            root.display(),
            tk.version(),
            PINNED.nvcc_version
        )));
    }
    let marker = dir.join(MARKER);
    fs::write(&marker, format!("{}\n", PINNED.nvcc_version)).map_err(|e| io_err("cannot write", &marker, e))?;
    Ok(tk)
}

#[cfg(unix)]
fn make_executable(dir: &Path) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    for entry in fs::read_dir(dir).map_err(|e| io_err("cannot read", dir, e))? {
        let path = entry.map_err(|e| io_err("cannot read", dir, e))?.path();
        let meta = fs::metadata(&path).map_err(|e| io_err("cannot stat", &path, e))?;
        if meta.is_file() && meta.permissions().mode() & 0o111 != 0o111 {
            let mode = meta.permissions().mode() | 0o755;
            fs::set_permissions(&path, fs::Permissions::from_mode(mode))
                .map_err(|e| io_err("cannot chmod", &path, e))?;
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn make_executable(_dir: &Path) -> Result<(), Error> {
    Ok(())
}

fn link_lib64(root: &Path) -> Result<(), Error> {
    let lib64 = root.join("lib64");
    if lib64.exists() {
        return Ok(());
    }
    // A dangling link (exists() is false) is replaced.
    let _ = fs::remove_file(&lib64);
    #[cfg(unix)]
    std::os::unix::fs::symlink("lib", &lib64).map_err(|e| io_err("cannot create symlink", &lib64, e))?;
    Ok(())
}

/// A Python with pip: `python3`, else `python`.
fn find_python() -> Result<String, Error> {
    for python in ["python3", "python"] {
        let ok = Command::new(python)
            .args(["-m", "pip", "--version"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Ok(python.to_string());
        }
    }
    Err(Error::Fetch(format!(
        "fetching needs Python 3 with pip (`python3 -m pip`), and none was found on PATH; \
         install pip, or pass --cuda-path / set CUDA_HOME to a CUDA {} installation",
        PINNED.nvcc_version
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_wheels_are_named_by_package() {
        for (name, version) in PINNED.wheels {
            assert!(name.starts_with("nvidia-") && !name.contains('/'), "{name}");
            assert!(version.starts_with("13.0."), "{version}");
        }
        assert!(PINNED.cache_name.ends_with(PINNED.nvcc_version));
    }

    #[test]
    fn incomplete_tree_is_not_adopted() {
        let dir = std::env::temp_dir().join(format!("cufront-fetch-{}", std::process::id()));
        fs::create_dir_all(dir.join(PINNED.root_in_tree).join("bin")).unwrap();
        assert!(adopt_or_open(&dir).is_none());
        assert!(!dir.join(MARKER).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn leftovers_of_interrupted_fetches_are_removed() {
        let root = std::env::temp_dir().join(format!("cufront-leftovers-{}", std::process::id()));
        let dir = root.join(PINNED.cache_name);
        for sibling in ["partial-1", "stale-2", "lock"] {
            fs::create_dir_all(root.join(format!("{}.{sibling}", PINNED.cache_name))).unwrap();
        }
        fs::create_dir_all(&dir).unwrap();
        remove_leftovers(&dir);
        assert!(!root.join(format!("{}.partial-1", PINNED.cache_name)).exists());
        assert!(!root.join(format!("{}.stale-2", PINNED.cache_name)).exists());
        assert!(root.join(format!("{}.lock", PINNED.cache_name)).exists());
        assert!(dir.exists());
        fs::remove_dir_all(&root).unwrap();
    }
}
