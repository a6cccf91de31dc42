//! `cufront toolkit overlay DIR`: a toolkit tree whose `bin/cudafe++` is
//! cufront, so that `DIR/bin/nvcc` runs the real pipeline with cufront as its
//! host front end.
//!
//! nvcc finds its tools from its own location (`nvcc.profile`: `TOP =
//! $(_HERE_)/..`, and `_HERE_` is the resolved executable's folder), so
//! `nvcc` and `nvcc.profile` are copied; everything else is a symbolic link
//! into the real toolkit, and `bin/cudafe++` links to the cufront executable
//! (which behaves as cudafe++ under that name).

use std::path::{Path, PathBuf};

/// Builds (or rebuilds) the overlay in `dir` over the toolkit at `real`,
/// with `exe` as its cudafe++. Returns `dir/bin/nvcc`.
pub fn build(real: &Path, dir: &Path, exe: &Path) -> Result<PathBuf, String> {
    let io = |what: &str, p: &Path, e: std::io::Error| format!("cannot {what} {}: {e}", p.display());
    let real = real.canonicalize().map_err(|e| io("resolve", real, e))?;
    let exe = exe.canonicalize().map_err(|e| io("resolve", exe, e))?;
    std::fs::create_dir_all(dir.join("bin")).map_err(|e| io("create", dir, e))?;
    for entry in std::fs::read_dir(&real).map_err(|e| io("read", &real, e))? {
        let entry = entry.map_err(|e| io("read", &real, e))?;
        if entry.file_name() == "bin" {
            continue;
        }
        link(&entry.path(), &dir.join(entry.file_name()))?;
    }
    let real_bin = real.join("bin");
    for entry in std::fs::read_dir(&real_bin).map_err(|e| io("read", &real_bin, e))? {
        let entry = entry.map_err(|e| io("read", &real_bin, e))?;
        let name = entry.file_name();
        let target = dir.join("bin").join(&name);
        if name == "cudafe++" {
            link(&exe, &target)?;
        } else if name == "nvcc" || name == "nvcc.profile" {
            let _ = std::fs::remove_file(&target);
            std::fs::copy(entry.path(), &target).map_err(|e| io("copy to", &target, e))?;
        } else {
            link(&entry.path(), &target)?;
        }
    }
    Ok(dir.join("bin/nvcc"))
}

fn link(target: &Path, at: &Path) -> Result<(), String> {
    if at.symlink_metadata().is_ok() {
        std::fs::remove_file(at).map_err(|e| format!("cannot replace {}: {e}", at.display()))?;
    }
    std::os::unix::fs::symlink(target, at).map_err(|e| format!("cannot link {}: {e}", at.display()))
}

/// The `cufront toolkit overlay DIR` command.
pub fn run(dir: &Path, cuda_path: Option<PathBuf>) -> std::process::ExitCode {
    let tk = match cufront_toolkit::find_or_fetch(&cufront_toolkit::Locate { cuda_path, require_pinned: false }) {
        Ok(tk) => tk,
        Err(e) => {
            eprintln!("cufront: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cufront: cannot find the cufront executable: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    match build(tk.root(), dir, &exe) {
        Ok(nvcc) => {
            println!("{}", nvcc.display());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cufront: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
