//! The server loop over real sockets, with a handler that echoes its
//! request: malformed and truncated frames get error replies or are
//! dropped, never disturbing the server; concurrent clients are served;
//! status and stop work; the decoder survives random and mutated bytes.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use cufront_daemon::protocol::{self, CompileRequest, DecodeError, ErrorKind, Fallback, Request, Response};
use cufront_daemon::{client, paths, server};

struct Echo;

/// Slow requests whose handler saw that the client had gone.
static GONE_SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl server::Handler for Echo {
    fn compile(&self, req: CompileRequest, client: server::Liveness) -> Response {
        if req.argv.first().is_some_and(|a| a == "panic") {
            panic!("handler panic (expected by the test)");
        }
        if req.argv.first().is_some_and(|a| a == "slow") {
            std::thread::sleep(Duration::from_millis(300));
            // The test's clients of slow requests are gone by now.
            if !client.connected() {
                GONE_SEEN.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        } else {
            assert!(client.connected());
        }
        Response::Compiled { status: req.argv.len() as i32, stdout: req.cwd, stderr: req.argv.join(" ").into_bytes() }
    }
    fn units(&self) -> (u32, u32) {
        (0, 1)
    }
}

const BUILD: &str = "test-build";

fn start(name: &str) -> (PathBuf, std::thread::JoinHandle<()>) {
    let dir = std::env::temp_dir().join(format!("cufront-daemon-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = server::Options {
        dir: dir.clone(),
        build: BUILD.into(),
        idle_exit: Some(Duration::from_secs(60)),
        max_connections: 32,
        stack_size: 1 << 20,
    };
    let handle = std::thread::spawn(move || server::serve(opts, Arc::new(Echo)).unwrap());
    for _ in 0..1000 {
        if client::connect(&dir).is_ok() {
            return (dir, handle);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("server did not start");
}

fn stop(dir: &Path, handle: std::thread::JoinHandle<()>) {
    assert_eq!(client::request(dir, &Request::Stop).unwrap(), Response::Stopping);
    handle.join().unwrap();
    assert!(!paths::socket_path(dir).exists(), "the socket is removed on stop");
    let _ = std::fs::remove_dir_all(dir);
}

fn compile(argv: &[&str]) -> Request {
    Request::Compile(CompileRequest {
        build: BUILD.into(),
        argv: argv.iter().map(|s| s.to_string()).collect(),
        cwd: b"/w".to_vec(),
        env: vec![],
        pid: 1,
        stderr_is_tty: false,
    })
}

fn raw(dir: &Path, bytes: &[u8]) -> Option<Response> {
    let mut s = UnixStream::connect(paths::socket_path(dir)).unwrap();
    s.write_all(bytes).unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    if buf.is_empty() { None } else { Some(protocol::decode_response(&buf).unwrap()) }
}

#[test]
fn modes_status_and_second_server() {
    let (dir, handle) = start("modes");
    let dir_mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    let sock_mode = std::fs::metadata(paths::socket_path(&dir)).unwrap().permissions().mode() & 0o777;
    assert_eq!((dir_mode, sock_mode), (0o700, 0o600));
    // One server per directory: a second one finds the lock taken.
    let opts = server::Options {
        dir: dir.clone(),
        build: BUILD.into(),
        idle_exit: None,
        max_connections: 1,
        stack_size: 1 << 20,
    };
    assert!(matches!(server::serve(opts, Arc::new(Echo)), Err(server::ServeError::AlreadyRunning)));
    match client::request(&dir, &Request::Status).unwrap() {
        Response::Status(s) => {
            assert_eq!(s.pid, std::process::id());
            assert_eq!(s.build, BUILD);
            assert!(s.rss_bytes > 0);
        }
        other => panic!("{other:?}"),
    }
    stop(&dir, handle);
}

#[test]
fn malformed_and_truncated_requests_do_not_disturb_the_server() {
    let (dir, handle) = start("malformed");
    let good = protocol::encode_request(&compile(&["a", "b"]));
    // Garbage: an error reply naming the problem.
    match raw(&dir, b"GET / HTTP/1.1\r\n\r\n") {
        Some(Response::Error { kind: ErrorKind::Malformed, message }) => assert!(message.contains("not a cufront")),
        other => panic!("{other:?}"),
    }
    // Too large: refused from the header, before the payload is read.
    let mut big = good[..protocol::HEADER_LEN].to_vec();
    big[8..12].copy_from_slice(&(protocol::MAX_REQUEST + 1).to_le_bytes());
    assert!(matches!(raw(&dir, &big), Some(Response::Error { kind: ErrorKind::Malformed, .. })));
    // Every truncation: an error reply or nothing, never a crash.
    for cut in 0..good.len() {
        match raw(&dir, &good[..cut]) {
            None if cut == 0 => {}
            Some(Response::Error { kind: ErrorKind::Malformed, .. }) => {}
            other => panic!("cut {cut}: {other:?}"),
        }
    }
    // A client that sends half a frame and dies (the socket closed).
    for _ in 0..5 {
        let mut s = UnixStream::connect(paths::socket_path(&dir)).unwrap();
        s.write_all(&good[..good.len() / 2]).unwrap();
        drop(s);
    }
    // A client that is gone before the (slow) answer is written.
    for _ in 0..3 {
        let mut s = UnixStream::connect(paths::socket_path(&dir)).unwrap();
        s.write_all(&protocol::encode_request(&compile(&["slow"]))).unwrap();
        drop(s);
    }
    // A panicking handler: the client is told to run in-process.
    // (First wait for the slow requests: each saw its client gone.)
    for _ in 0..200 {
        if GONE_SEEN.load(std::sync::atomic::Ordering::SeqCst) == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(GONE_SEEN.load(std::sync::atomic::Ordering::SeqCst), 3);
    assert_eq!(client::request(&dir, &compile(&["panic"])).unwrap(), Response::Fallback(Fallback::Panicked));
    // Still serving, correctly.
    let r = client::request(&dir, &compile(&["x", "y", "z"])).unwrap();
    assert_eq!(r, Response::Compiled { status: 3, stdout: b"/w".to_vec(), stderr: b"x y z".to_vec() });
    stop(&dir, handle);
}

#[test]
fn concurrent_clients() {
    let (dir, handle) = start("concurrent");
    std::thread::scope(|s| {
        for t in 0..8 {
            let dir = &dir;
            s.spawn(move || {
                for i in 0..200 {
                    let a = format!("t{t}");
                    let b = format!("i{i}");
                    let r = client::request(dir, &compile(&[&a, &b])).unwrap();
                    assert_eq!(
                        r,
                        Response::Compiled {
                            status: 2,
                            stdout: b"/w".to_vec(),
                            stderr: format!("{a} {b}").into_bytes()
                        }
                    );
                }
            });
        }
    });
    stop(&dir, handle);
}

#[test]
fn a_client_of_another_build_stops_the_server() {
    let (dir, handle) = start("build");
    let mut req = compile(&["a"]);
    if let Request::Compile(c) = &mut req {
        c.build = "other".into();
    }
    assert_eq!(client::request(&dir, &req).unwrap(), Response::Fallback(Fallback::WrongBuild));
    handle.join().unwrap();
    assert!(matches!(client::connect(&dir), Err(client::ClientError::NotRunning)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// xorshift64*: deterministic pseudo-random bytes without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn decoder_fuzz() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let seeds = [
        protocol::encode_request(&compile(&["--c++17", "x.ii"])),
        protocol::encode_request(&Request::Status),
        protocol::encode_response(&Response::Compiled { status: 2, stdout: vec![1, 2], stderr: b"e".to_vec() }),
        protocol::encode_response(&Response::Error { kind: ErrorKind::Busy, message: "m".into() }),
    ];
    let mut decoded_ok = 0;
    for round in 0..20_000 {
        let mut bytes = seeds[round % seeds.len()].clone();
        match rng.below(4) {
            // Random bytes behind a valid magic and version.
            0 => {
                let n = rng.below(64);
                bytes.truncate(protocol::HEADER_LEN);
                bytes.extend((0..n).map(|_| rng.next() as u8));
                let len = (bytes.len() - protocol::HEADER_LEN) as u32;
                bytes[8..12].copy_from_slice(&len.to_le_bytes());
            }
            // Truncation.
            1 => bytes.truncate(rng.below(bytes.len() + 1)),
            // Bit flips.
            2 => {
                for _ in 0..=rng.below(4) {
                    let i = rng.below(bytes.len());
                    bytes[i] ^= 1 << rng.below(8);
                }
            }
            // Pure noise.
            _ => bytes = (0..rng.below(80)).map(|_| rng.next() as u8).collect(),
        }
        let a = protocol::decode_request(&bytes);
        let b = protocol::decode_response(&bytes);
        // Streams decode like whole frames (or report the truncation).
        let s = protocol::read_request(&mut &bytes[..]);
        if let Ok(r) = &a {
            assert_eq!(s.as_ref().ok(), Some(r));
            assert_eq!(protocol::decode_request(&protocol::encode_request(r)).as_ref(), Ok(r));
        }
        if let Ok(r) = &b {
            assert_eq!(protocol::decode_response(&protocol::encode_response(r)).as_ref(), Ok(r));
        }
        decoded_ok += usize::from(a.is_ok()) + usize::from(b.is_ok());
        if let Err(e) = a {
            // Every error has a message for the reply.
            assert!(!e.to_string().is_empty());
            let _: DecodeError = e;
        }
    }
    // The mutations keep some frames valid: the round trip above was exercised.
    assert!(decoded_ok > 100, "{decoded_ok}");
}
