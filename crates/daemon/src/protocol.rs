//! The wire protocol: one request frame from the client, one response frame
//! from the server, then the connection closes.
//!
//! A frame is a 12-byte header — magic `CUFD`, the protocol version (u16),
//! the message kind (u8), a reserved zero byte, the payload length (u32) —
//! and the payload. Integers are little-endian; byte strings are a u32
//! length and the bytes; lists are a u32 count and the items. The length is
//! checked against the direction's limit before anything is allocated, and
//! every count and length inside the payload against what is left of it, so
//! a hostile frame cannot make the reader allocate more than the limit.
//!
//! Decoding never panics: every malformed input is a [`DecodeError`].

use std::io::{self, Read, Write};

pub const MAGIC: [u8; 4] = *b"CUFD";
/// Bumped on any change of the payload layouts.
pub const VERSION: u16 = 1;
pub const HEADER_LEN: usize = 12;
/// The largest request payload (argv, cwd and the environment fit easily).
pub const MAX_REQUEST: u32 = 4 << 20;
/// The largest response payload (a compilation's stdout and stderr).
pub const MAX_RESPONSE: u32 = 256 << 20;

const K_COMPILE: u8 = 1;
const K_STATUS: u8 = 2;
const K_STOP: u8 = 3;
const K_COMPILED: u8 = 0x81;
const K_STATUS_INFO: u8 = 0x82;
const K_STOPPING: u8 = 0x83;
const K_FALLBACK: u8 = 0x84;
const K_ERROR: u8 = 0x85;

/// One cudafe++ run on behalf of a client: everything of the client's
/// process that the run reads.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CompileRequest {
    /// Identity of the client's executable; a server of another build
    /// answers [`Fallback::WrongBuild`].
    pub build: String,
    /// The cudafe++ arguments (without argv[0]).
    pub argv: Vec<String>,
    /// The client's working directory (raw bytes of the path).
    pub cwd: Vec<u8>,
    /// The client's environment (raw bytes).
    pub env: Vec<(Vec<u8>, Vec<u8>)>,
    pub pid: u32,
    pub stderr_is_tty: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Compile(CompileRequest),
    Status,
    Stop,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StatusInfo {
    pub pid: u32,
    pub build: String,
    pub uptime_ms: u64,
    pub requests: u64,
    pub units: u32,
    pub max_units: u32,
    pub rss_bytes: u64,
}

/// Why the server declines a request that the client should run itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The server runs another build of cufront (it stops after answering).
    WrongBuild,
    /// The request needs the client's own process (input from stdin).
    NotDelegable,
    /// The run panicked in the server; the client reproduces it in-process.
    Panicked,
    /// The server is shutting down.
    ShuttingDown,
}

/// An error reply: the request was not understood or not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Malformed,
    PeerRefused,
    Busy,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    Compiled { status: i32, stdout: Vec<u8>, stderr: Vec<u8> },
    Status(StatusInfo),
    Stopping,
    Fallback(Fallback),
    Error { kind: ErrorKind, message: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    BadMagic,
    UnsupportedVersion(u16),
    UnknownKind(u8),
    ReservedNotZero,
    TooLarge { len: u32, limit: u32 },
    Truncated,
    BadUtf8,
    BadValue(&'static str),
    TrailingBytes,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::BadMagic => write!(f, "not a cufront daemon frame"),
            DecodeError::UnsupportedVersion(v) => write!(f, "protocol version {v} (this side speaks {VERSION})"),
            DecodeError::UnknownKind(k) => write!(f, "unknown message kind {k:#x}"),
            DecodeError::ReservedNotZero => write!(f, "reserved header byte is not zero"),
            DecodeError::TooLarge { len, limit } => write!(f, "payload of {len} bytes exceeds the limit of {limit}"),
            DecodeError::Truncated => write!(f, "truncated frame"),
            DecodeError::BadUtf8 => write!(f, "a text field is not UTF-8"),
            DecodeError::BadValue(what) => write!(f, "bad value for {what}"),
            DecodeError::TrailingBytes => write!(f, "bytes after the payload's last field"),
        }
    }
}

/// Reading a frame from a stream.
#[derive(Debug)]
pub enum ReadError {
    /// The peer closed the connection before sending a byte.
    Closed,
    Io(io::Error),
    Decode(DecodeError),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Closed => write!(f, "connection closed"),
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Decode(e) => write!(f, "{e}"),
        }
    }
}

impl From<DecodeError> for ReadError {
    fn from(e: DecodeError) -> Self {
        ReadError::Decode(e)
    }
}

// ---- encoding -------------------------------------------------------------

struct Enc(Vec<u8>);

impl Enc {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
}

fn frame(kind: u8, payload: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(kind);
    out.push(0);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The whole frame of `req`.
pub fn encode_request(req: &Request) -> Vec<u8> {
    let mut e = Enc(Vec::new());
    let kind = match req {
        Request::Compile(c) => {
            e.bytes(c.build.as_bytes());
            e.u32(c.argv.len() as u32);
            for a in &c.argv {
                e.bytes(a.as_bytes());
            }
            e.bytes(&c.cwd);
            e.u32(c.env.len() as u32);
            for (k, v) in &c.env {
                e.bytes(k);
                e.bytes(v);
            }
            e.u32(c.pid);
            e.u8(u8::from(c.stderr_is_tty));
            K_COMPILE
        }
        Request::Status => K_STATUS,
        Request::Stop => K_STOP,
    };
    frame(kind, e.0)
}

/// The whole frame of `resp`.
pub fn encode_response(resp: &Response) -> Vec<u8> {
    let mut e = Enc(Vec::new());
    let kind = match resp {
        Response::Compiled { status, stdout, stderr } => {
            e.u32(*status as u32);
            e.bytes(stdout);
            e.bytes(stderr);
            K_COMPILED
        }
        Response::Status(s) => {
            e.u32(s.pid);
            e.bytes(s.build.as_bytes());
            e.u64(s.uptime_ms);
            e.u64(s.requests);
            e.u32(s.units);
            e.u32(s.max_units);
            e.u64(s.rss_bytes);
            K_STATUS_INFO
        }
        Response::Stopping => K_STOPPING,
        Response::Fallback(why) => {
            e.u8(match why {
                Fallback::WrongBuild => 1,
                Fallback::NotDelegable => 2,
                Fallback::Panicked => 3,
                Fallback::ShuttingDown => 4,
            });
            K_FALLBACK
        }
        Response::Error { kind, message } => {
            e.u8(match kind {
                ErrorKind::Malformed => 1,
                ErrorKind::PeerRefused => 2,
                ErrorKind::Busy => 3,
            });
            e.bytes(message.as_bytes());
            K_ERROR
        }
    };
    frame(kind, e.0)
}

// ---- decoding -------------------------------------------------------------

struct Dec<'a> {
    buf: &'a [u8],
}

impl<'a> Dec<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if n > self.buf.len() {
            return Err(DecodeError::Truncated);
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn bytes(&mut self) -> Result<Vec<u8>, DecodeError> {
        let n = self.u32()? as usize;
        Ok(self.take(n)?.to_vec())
    }
    fn string(&mut self) -> Result<String, DecodeError> {
        String::from_utf8(self.bytes()?).map_err(|_| DecodeError::BadUtf8)
    }
    /// A count of items each at least `min_item` bytes long: more than the
    /// rest of the payload can hold is a truncated frame (checked before any
    /// allocation).
    fn count(&mut self, min_item: usize) -> Result<usize, DecodeError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_item) > self.buf.len() {
            return Err(DecodeError::Truncated);
        }
        Ok(n)
    }
    fn bool(&mut self) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(DecodeError::BadValue("a boolean")),
        }
    }
    fn end(&self) -> Result<(), DecodeError> {
        if self.buf.is_empty() { Ok(()) } else { Err(DecodeError::TrailingBytes) }
    }
}

/// A frame header: (kind, payload length), checked against `limit`.
pub fn decode_header(h: &[u8; HEADER_LEN], limit: u32) -> Result<(u8, u32), DecodeError> {
    if h[..4] != MAGIC {
        return Err(DecodeError::BadMagic);
    }
    let version = u16::from_le_bytes([h[4], h[5]]);
    if version != VERSION {
        return Err(DecodeError::UnsupportedVersion(version));
    }
    if h[7] != 0 {
        return Err(DecodeError::ReservedNotZero);
    }
    let len = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    if len > limit {
        return Err(DecodeError::TooLarge { len, limit });
    }
    Ok((h[6], len))
}

pub fn decode_request_payload(kind: u8, payload: &[u8]) -> Result<Request, DecodeError> {
    let mut d = Dec { buf: payload };
    let req = match kind {
        K_COMPILE => {
            let build = d.string()?;
            let n = d.count(4)?;
            let mut argv = Vec::with_capacity(n);
            for _ in 0..n {
                argv.push(d.string()?);
            }
            let cwd = d.bytes()?;
            let n = d.count(8)?;
            let mut env = Vec::with_capacity(n);
            for _ in 0..n {
                env.push((d.bytes()?, d.bytes()?));
            }
            let pid = d.u32()?;
            let stderr_is_tty = d.bool()?;
            Request::Compile(CompileRequest { build, argv, cwd, env, pid, stderr_is_tty })
        }
        K_STATUS => Request::Status,
        K_STOP => Request::Stop,
        k => return Err(DecodeError::UnknownKind(k)),
    };
    d.end()?;
    Ok(req)
}

pub fn decode_response_payload(kind: u8, payload: &[u8]) -> Result<Response, DecodeError> {
    let mut d = Dec { buf: payload };
    let resp = match kind {
        K_COMPILED => {
            let status = d.u32()? as i32;
            Response::Compiled { status, stdout: d.bytes()?, stderr: d.bytes()? }
        }
        K_STATUS_INFO => Response::Status(StatusInfo {
            pid: d.u32()?,
            build: d.string()?,
            uptime_ms: d.u64()?,
            requests: d.u64()?,
            units: d.u32()?,
            max_units: d.u32()?,
            rss_bytes: d.u64()?,
        }),
        K_STOPPING => Response::Stopping,
        K_FALLBACK => Response::Fallback(match d.u8()? {
            1 => Fallback::WrongBuild,
            2 => Fallback::NotDelegable,
            3 => Fallback::Panicked,
            4 => Fallback::ShuttingDown,
            _ => return Err(DecodeError::BadValue("a fallback reason")),
        }),
        K_ERROR => {
            let kind = match d.u8()? {
                1 => ErrorKind::Malformed,
                2 => ErrorKind::PeerRefused,
                3 => ErrorKind::Busy,
                _ => return Err(DecodeError::BadValue("an error kind")),
            };
            Response::Error { kind, message: d.string()? }
        }
        k => return Err(DecodeError::UnknownKind(k)),
    };
    d.end()?;
    Ok(resp)
}

/// Decodes one whole request frame held in memory (the fuzz entry point).
pub fn decode_request(frame: &[u8]) -> Result<Request, DecodeError> {
    let (kind, payload) = split_frame(frame, MAX_REQUEST)?;
    decode_request_payload(kind, payload)
}

/// Decodes one whole response frame held in memory.
pub fn decode_response(frame: &[u8]) -> Result<Response, DecodeError> {
    let (kind, payload) = split_frame(frame, MAX_RESPONSE)?;
    decode_response_payload(kind, payload)
}

fn split_frame(frame: &[u8], limit: u32) -> Result<(u8, &[u8]), DecodeError> {
    let header: &[u8; HEADER_LEN] =
        frame.get(..HEADER_LEN).and_then(|h| h.try_into().ok()).ok_or(DecodeError::Truncated)?;
    let (kind, len) = decode_header(header, limit)?;
    let rest = &frame[HEADER_LEN..];
    match rest.len().cmp(&(len as usize)) {
        std::cmp::Ordering::Less => Err(DecodeError::Truncated),
        std::cmp::Ordering::Greater => Err(DecodeError::TrailingBytes),
        std::cmp::Ordering::Equal => Ok((kind, rest)),
    }
}

/// Reads one frame's kind and payload from a stream (payload at most `limit`).
fn read_frame(r: &mut impl Read, limit: u32) -> Result<(u8, Vec<u8>), ReadError> {
    let mut header = [0u8; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        match r.read(&mut header[got..]) {
            Ok(0) if got == 0 => return Err(ReadError::Closed),
            Ok(0) => return Err(DecodeError::Truncated.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    let (kind, len) = decode_header(&header, limit)?;
    let mut payload = Vec::new();
    // `take` bounds the read by the announced length; a short read is a
    // peer that went away mid-frame.
    r.take(u64::from(len)).read_to_end(&mut payload).map_err(ReadError::Io)?;
    if payload.len() != len as usize {
        return Err(DecodeError::Truncated.into());
    }
    Ok((kind, payload))
}

pub fn read_request(r: &mut impl Read) -> Result<Request, ReadError> {
    let (kind, payload) = read_frame(r, MAX_REQUEST)?;
    Ok(decode_request_payload(kind, &payload)?)
}

pub fn read_response(r: &mut impl Read) -> Result<Response, ReadError> {
    let (kind, payload) = read_frame(r, MAX_RESPONSE)?;
    Ok(decode_response_payload(kind, &payload)?)
}

pub fn write_request(w: &mut impl Write, req: &Request) -> io::Result<()> {
    w.write_all(&encode_request(req))?;
    w.flush()
}

pub fn write_response(w: &mut impl Write, resp: &Response) -> io::Result<()> {
    w.write_all(&encode_response(resp))?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Request {
        Request::Compile(CompileRequest {
            build: "b1".into(),
            argv: vec!["--c++17".into(), "x.ii".into()],
            cwd: b"/tmp/w".to_vec(),
            env: vec![(b"TERM".to_vec(), b"dumb".to_vec()), (b"X".to_vec(), vec![0xff])],
            pid: 42,
            stderr_is_tty: true,
        })
    }

    #[test]
    fn requests_and_responses_round_trip() {
        for req in [sample(), Request::Status, Request::Stop] {
            assert_eq!(decode_request(&encode_request(&req)), Ok(req.clone()));
            let mut stream = &encode_request(&req)[..];
            assert_eq!(read_request(&mut stream).unwrap(), req);
        }
        let resps = [
            Response::Compiled { status: -1, stdout: b"o".to_vec(), stderr: b"e\n".to_vec() },
            Response::Status(StatusInfo {
                pid: 1,
                build: "b".into(),
                uptime_ms: 2,
                requests: 3,
                units: 4,
                max_units: 5,
                rss_bytes: 6,
            }),
            Response::Stopping,
            Response::Fallback(Fallback::Panicked),
            Response::Error { kind: ErrorKind::Busy, message: "m".into() },
        ];
        for resp in resps {
            assert_eq!(decode_response(&encode_response(&resp)), Ok(resp));
        }
    }

    #[test]
    fn typed_errors() {
        let good = encode_request(&sample());
        assert_eq!(decode_request(&good[..5]), Err(DecodeError::Truncated));
        assert_eq!(decode_request(&good[..good.len() - 1]), Err(DecodeError::Truncated));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert_eq!(decode_request(&bad), Err(DecodeError::BadMagic));
        let mut bad = good.clone();
        bad[4] = 9;
        assert_eq!(decode_request(&bad), Err(DecodeError::UnsupportedVersion(9)));
        let mut bad = good.clone();
        bad[6] = 0x77;
        assert_eq!(decode_request(&bad), Err(DecodeError::UnknownKind(0x77)));
        let mut bad = good.clone();
        bad[8..12].copy_from_slice(&(MAX_REQUEST + 1).to_le_bytes());
        assert_eq!(decode_request(&bad), Err(DecodeError::TooLarge { len: MAX_REQUEST + 1, limit: MAX_REQUEST }));
        // A huge argv count in a small payload is refused before allocating.
        let mut e = Enc(Vec::new());
        e.bytes(b"b");
        e.u32(u32::MAX);
        assert_eq!(decode_request(&frame(K_COMPILE, e.0)), Err(DecodeError::Truncated));
        // A status request with a payload.
        assert_eq!(decode_request(&frame(K_STATUS, vec![1])), Err(DecodeError::TrailingBytes));
        let mut s = Vec::new();
        assert!(matches!(read_request(&mut &s[..]), Err(ReadError::Closed)));
        s.extend_from_slice(&good[..20]);
        assert!(matches!(read_request(&mut &s[..]), Err(ReadError::Decode(DecodeError::Truncated))));
    }
}
