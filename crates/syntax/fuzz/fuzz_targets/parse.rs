//! Fuzz target: any UTF-8 input parses without panicking, both trees (all
//! bodies parsed, and declarations only) re-print the input byte for byte,
//! and each lazy body parsed on demand re-prints its text.
//!
//! Run: `cd crates/syntax/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run parse ../test_data/parser/ok`
//! (the snapshot inputs make a good seed corpus). Without cargo-fuzz, the
//! same instrumented build is
//! `RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
//! -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
//! -Cllvm-args=-sanitizer-coverage-pc-table
//! -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions"
//! cargo +nightly build --release --target x86_64-unknown-linux-gnu`, then
//! `target/x86_64-unknown-linux-gnu/release/parse CORPUS_DIR`.

#![no_main]

use cufront_syntax::{LexOptions, ParseOptions, SyntaxKind, parse};
use libfuzzer_sys::fuzz_target;

#[path = "common/alt_stack.rs"]
mod alt_stack;

fuzz_target!(init: alt_stack::install(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The first byte picks the language options, so both are explored.
    let cxx20 = data.first().is_some_and(|b| b & 1 == 1);
    for lazy_bodies in [false, true] {
        let opts = ParseOptions { lex: LexOptions { cxx20, ..LexOptions::default() }, lazy_bodies };
        let p = parse(text, opts);
        let root = p.syntax_node();
        assert_eq!(root.to_string(), text);
        if lazy_bodies {
            for body in root.descendants().filter(|n| n.kind() == SyntaxKind::LAZY_BODY) {
                let parsed = p.parse_body(&body).expect("a lazy body of this parse");
                assert_eq!(parsed.syntax_node().to_string(), body.to_string());
            }
        }
    }
});
