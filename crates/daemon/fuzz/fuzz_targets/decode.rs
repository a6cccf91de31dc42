//! Fuzz target: the daemon's frame decoder, on whole frames and on streams,
//! both directions. Nothing may panic; what decodes re-encodes to a frame
//! that decodes to the same message.
//!
//! Run: `cd crates/daemon/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run decode`.

#![no_main]

use cufront_daemon::protocol;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = protocol::decode_request(data) {
        assert_eq!(protocol::decode_request(&protocol::encode_request(&r)), Ok(r));
    }
    if let Ok(r) = protocol::decode_response(data) {
        assert_eq!(protocol::decode_response(&protocol::encode_response(&r)), Ok(r));
    }
    let _ = protocol::read_request(&mut &data[..]);
    let _ = protocol::read_response(&mut &data[..]);
});
