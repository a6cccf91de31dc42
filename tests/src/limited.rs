//! A command run as a build runs it, under limits: an address-space limit
//! (`ulimit -v`: a runaway allocation aborts the run, which the caller
//! reports), a wall-clock limit (the run is killed past it), stdin closed,
//! stdout dropped, stderr drained while it runs (a run that writes much
//! must not block) and its end kept (where a panic or a signal shows), and
//! the files the run left in its folder.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Address space, in KiB (the allocator reserves more than it touches:
    /// a bound on runaway growth, not a measurement).
    pub memory_kib: u64,
    pub time: Duration,
}

#[derive(Debug)]
pub struct Outcome {
    /// The exit status; `None` after a signal or the time limit.
    pub code: Option<i32>,
    pub timed_out: bool,
    /// The last 2000 bytes of stderr.
    pub stderr: String,
    pub elapsed: Duration,
    /// Files that were not in the folder before the run, sorted.
    pub created: Vec<String>,
}

/// The names in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// Runs `bin ARGS` in `dir` under `limits`.
pub fn run(bin: &Path, dir: &Path, args: &[&str], limits: Limits) -> Outcome {
    let before = listing(dir);
    let mut script = format!("ulimit -v {}; exec \"$0\"", limits.memory_kib);
    for i in 0..args.len() {
        script.push_str(&format!(" \"${}\"", i + 1));
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .args(args)
        .current_dir(dir)
        .env("NOCOLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut last = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(n) = std::io::Read::read(&mut err, &mut buf) {
            if n == 0 {
                break;
            }
            last.extend_from_slice(&buf[..n]);
            if last.len() > 1 << 16 {
                last.drain(..last.len() - 2000);
            }
        }
        let start = last.len().saturating_sub(2000);
        String::from_utf8_lossy(&last[start..]).into_owned()
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > limits.time {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    let stderr = reader.join().unwrap_or_default();
    let created = listing(dir).into_iter().filter(|f| !before.contains(f)).collect();
    match status {
        Some(s) => Outcome { code: s.code(), timed_out: false, stderr, elapsed, created },
        None => Outcome {
            code: None,
            timed_out: true,
            stderr: format!("timed out after {:?}\n{stderr}", limits.time),
            elapsed,
            created,
        },
    }
}
