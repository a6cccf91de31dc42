//! Fuzz target: `cufront check`'s path after preprocessing: the whole unit
//! parsed with every body, the line markers mapped, and each error located
//! (file, line, column) as `check` prints it. Nothing may panic.
//!
//! Run: `cd crates/syntax/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run check CORPUS`.

#![no_main]

use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{LexOptions, ParseOptions, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let cxx20 = data.first().is_some_and(|b| b & 1 == 1);
    let p = parse(&text, ParseOptions { lex: LexOptions { cxx20, digit_separators: true }, lazy_bodies: false });
    let map = SourceMap::new(&text, "fuzz.cu");
    for e in p.errors() {
        let loc = map.location(e.range.start().into());
        let _ = (map.file_name(loc.file), loc.line, loc.col);
        assert!(usize::from(e.range.end()) <= text.len());
    }
});
