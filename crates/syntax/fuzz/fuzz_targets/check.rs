//! Fuzz target: `cufront check`'s path after preprocessing: the whole unit
//! parsed with every body, the line markers mapped, and each error located
//! (file, line, column) as `check` prints it; then the semantic checks of
//! both passes (`cufront_check::host_pass`, `device_pass`) over a unit with
//! lazy bodies, as the cudafe++ mode and `check` run them. Nothing may panic.
//!
//! Run: `cd crates/syntax/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run check CORPUS`.

#![no_main]

use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, new_options, new_translation_unit};
use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{LexOptions, ParseOptions, parse};
use libfuzzer_sys::fuzz_target;

#[path = "common/alt_stack.rs"]
mod alt_stack;

fuzz_target!(init: alt_stack::install(), |data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let cxx20 = data.first().is_some_and(|b| b & 1 == 1);
    let p = parse(&text, ParseOptions { lex: LexOptions { cxx20, digit_separators: true }, lazy_bodies: false });
    let map = SourceMap::new(&text, "fuzz.cu");
    for e in p.errors() {
        let loc = map.location(e.range.start().into());
        let _ = (map.file_name(loc.file), loc.line, loc.col);
        assert!(usize::from(e.range.end()) <= text.len());
    }
    let db = RootDatabase::new();
    let standard = if cxx20 { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    let lang = new_options(&db, LangOptions { standard, lazy_bodies: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "fuzz.ii".into(), Arc::from(text.as_ref()), lang);
    let opts = cufront_check::Options {
        relaxed_constexpr: data.get(1).is_some_and(|b| b & 1 == 1),
        extended_lambda: true,
        whole_program: data.get(1).is_some_and(|b| b & 2 == 2),
    };
    for f in cufront_check::host_pass(&db, tu, opts).into_iter().chain(cufront_check::device_pass(&db, tu, opts)) {
        assert!(f.at as usize <= text.len());
    }
});
