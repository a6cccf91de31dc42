//! Is a folder a usable CUDA toolkit, and which release is it?

use std::path::Path;
use std::process::Command;

use crate::Error;

/// Files every toolkit we can use has, relative to its root. Enough to run
/// nvcc's host and device pipelines: the driver, both front ends, the runtime
/// headers.
pub const REQUIRED: &[&str] = &[
    "bin/nvcc",
    "bin/nvcc.profile",
    "bin/cudafe++",
    "nvvm/bin/cicc",
    "include/cuda_runtime.h",
    "include/crt/host_defines.h",
];

/// Checks that `root` holds a toolkit and returns `nvcc`'s version
/// (`13.0.88`). Runs `nvcc --version`, so a tree with a broken binary or a
/// missing library fails here rather than in the middle of a test.
pub fn check_tree(root: &Path) -> Result<String, Error> {
    let missing = missing_files(root, REQUIRED);
    if !missing.is_empty() {
        return Err(Error::Invalid(format!("{} lacks {}", root.display(), missing.join(", "))));
    }
    let nvcc = root.join("bin/nvcc");
    let out = Command::new(&nvcc)
        .arg("--version")
        .output()
        .map_err(|e| Error::Invalid(format!("cannot run {}: {e}", nvcc.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(Error::Invalid(format!(
            "{} --version failed ({}): {}",
            nvcc.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    parse_nvcc_version(&stdout)
        .ok_or_else(|| Error::Invalid(format!("{} --version printed no version: {}", nvcc.display(), stdout.trim())))
}

/// The entries of `files` (relative to `root`) that do not exist.
pub fn missing_files(root: &Path, files: &[&str]) -> Vec<String> {
    files.iter().filter(|f| !root.join(f).exists()).map(|f| f.to_string()).collect()
}

/// Extracts `13.0.88` from nvcc's banner line
/// `Cuda compilation tools, release 13.0, V13.0.88`.
pub fn parse_nvcc_version(banner: &str) -> Option<String> {
    let line = banner.lines().find(|l| l.contains("release "))?;
    let v = line.rsplit(", V").next()?.trim();
    let well_formed = !v.is_empty() && v.split('.').count() == 3 && v.split('.').all(|p| p.parse::<u32>().is_ok());
    well_formed.then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_from_banner() {
        let banner = "nvcc: NVIDIA (R) Cuda compiler driver\n\
                      Copyright (c) 2005-2025 NVIDIA Corporation\n\
                      Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n\
                      Cuda compilation tools, release 13.0, V13.0.88\n\
                      Build cuda_13.0.r13.0/compiler.36424714_0\n";
        assert_eq!(parse_nvcc_version(banner).as_deref(), Some("13.0.88"));
        assert_eq!(parse_nvcc_version("Cuda compilation tools, release 12.4, V12.4.131"), Some("12.4.131".into()));
        assert_eq!(parse_nvcc_version("no banner here"), None);
        assert_eq!(parse_nvcc_version("release 13.0, Vgarbage"), None);
    }

    #[test]
    fn missing_files_of_empty_tree() {
        let dir = std::env::temp_dir().join(format!("cufront-verify-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/nvcc"), "").unwrap();
        let missing = missing_files(&dir, REQUIRED);
        assert!(!missing.contains(&"bin/nvcc".to_string()));
        assert!(missing.contains(&"bin/cudafe++".to_string()));
        assert!(matches!(check_tree(&dir), Err(Error::Invalid(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
