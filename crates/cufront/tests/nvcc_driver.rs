//! `cufront nvcc` against the real nvcc: a few corpus programs compiled in
//! one command (`-j 2`, through the daemon) give objects with the same `nm`
//! symbols (name and type) as the real nvcc's, the compilation database
//! gets one entry per file, and a file that does not compile gives nvcc's
//! exit status.

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::{corpus, toolkit};

const PROGRAMS: &[&str] = &["vector_add.cu", "reduction.cu", "matmul_tiled.cu"];

fn nm(obj: &Path) -> Vec<String> {
    let out = Command::new("nm").arg("-P").arg(obj).output().expect("run nm");
    assert!(out.status.success(), "nm {}", obj.display());
    let mut syms: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect();
    syms.sort();
    syms
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-nvcc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn parallel_build_matches_real_nvcc() {
    let tk = toolkit();
    let programs: Vec<_> = corpus().into_iter().filter(|p| PROGRAMS.contains(&p.name.as_str())).collect();
    assert_eq!(programs.len(), PROGRAMS.len());
    let std = programs[0].stds[0];
    let flags = ["-arch=sm_90".to_string(), format!("-std={}", std.as_str())];
    let ours = scratch("ours");
    let real = scratch("real");
    // Not created here: the daemon makes it private (0700).
    let daemon_dir = std::env::temp_dir().join(format!("cufront-nvcc-{}-daemon", std::process::id()));
    for p in &programs {
        assert!(p.flags.is_empty() && p.stds.contains(&std), "{}: pick programs built alike", p.name);
        for dir in [&ours, &real] {
            std::fs::copy(&p.path, dir.join(&p.name)).unwrap();
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .arg("nvcc")
        .args(["-j", "2", "--daemon", "--compile-commands", "cc.json", "--cuda-path"])
        .arg(tk.root())
        .args(&flags)
        .arg("-c")
        .args(PROGRAMS)
        .current_dir(&ours)
        .env("CUFRONT_DAEMON_DIR", &daemon_dir)
        .env("CUFRONT_DAEMON_IDLE_SECS", "60")
        .env("CUFRONT_DAEMON_DEBUG", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("running in-process"), "the daemon served: {stderr}");
    for p in PROGRAMS {
        let st = Command::new(tk.nvcc()).args(&flags).arg("-c").arg(p).current_dir(&real).status().unwrap();
        assert!(st.success(), "real nvcc {p}");
        let obj = Path::new(p).with_extension("o");
        assert_eq!(nm(&ours.join(&obj)), nm(&real.join(&obj)), "{p}");
    }
    let db: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(ours.join("cc.json")).unwrap()).unwrap();
    let files: Vec<String> = db.as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap().to_string()).collect();
    let want: Vec<String> = PROGRAMS.iter().map(|p| ours.join(p).display().to_string()).collect();
    assert_eq!(files, want);
    assert_eq!(db[0]["arguments"][0], tk.nvcc().display().to_string());
    // A file that does not compile: nvcc's exit status (cufront's own
    // diagnostics may differ from cudafe++'s; the status must not).
    std::fs::write(ours.join("bad.cu"), "int main( {}\n").unwrap();
    std::fs::write(real.join("bad.cu"), "int main( {}\n").unwrap();
    let ours_bad = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .arg("nvcc")
        .arg("--cuda-path")
        .arg(tk.root())
        .args(["-c", "bad.cu", "vector_add.cu"])
        .current_dir(&ours)
        .env_remove("CUFRONT_DAEMON")
        .status()
        .unwrap();
    let real_bad = Command::new(tk.nvcc()).args(["-c", "bad.cu", "vector_add.cu"]).current_dir(&real).status().unwrap();
    assert_eq!(ours_bad.code(), real_bad.code());
    let _ = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .args(["daemon", "stop"])
        .env("CUFRONT_DAEMON_DIR", &daemon_dir)
        .status();
    for d in [ours, real, daemon_dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}
