//! Fuzz target: the cudafe++ mode end to end, without its I/O: the unit is
//! parsed as `cufront cudafe++` parses it (declarations first, then the
//! bodies the host file needs, `BodyNeeds`), and when it has no syntax
//! error the back end runs: the module id's key and the host file, with
//! execution spaces from the semantic model. Nothing may panic, and a host file
//! is produced or its errors listed.
//!
//! Run: `cd crates/syntax/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run cudafe CORPUS`.

#![no_main]

use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, new_options, new_translation_unit};
use cufront_emit::host::bodies::BodyNeeds;
use cufront_emit::host::{self, HostOptions};
use cufront_emit::key::Sema;
use cufront_syntax::TextRange;
use libfuzzer_sys::fuzz_target;

#[path = "common/alt_stack.rs"]
mod alt_stack;

fuzz_target!(init: alt_stack::install(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let db = RootDatabase::new();
    let standard = if data.first().is_some_and(|b| b & 1 == 1) { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    let lang = new_options(&db, LangOptions { standard, lazy_bodies: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "fuzz.ii".into(), Arc::from(text), lang);
    let lazy = cufront_base_db::parse(&db, tu);
    let map = cufront_base_db::source_map(&db, tu);
    let lex = lazy.options().lex;
    let needs = BodyNeeds::new(&lazy.syntax_node());
    let ranges: Vec<TextRange> = lazy.lazy_body_ranges().filter(|r| needs.needs(&text[*r], lex)).collect();
    let parse = lazy.with_bodies_parsed(&ranges);
    // The semantic checks of the host pass run before the back end.
    let _ = cufront_check::host_pass(&db, tu, cufront_check::Options::default());
    if !parse.errors().is_empty() {
        return;
    }
    let root = parse.syntax_node();
    let _ = cufront_emit::key::module_key(&root, map, false, Sema::new(&db, tu));
    let opts = HostOptions {
        gnu_version: Some(120200),
        static_host_stub: true,
        extended_lambda: data.get(1).is_some_and(|b| b & 1 == 1),
        cxx17: true,
        device_hidden_visibility: true,
        device_c: false,
        debug_mode: false,
        stub_file_name: "fuzz.stub.c".into(),
        module_id: "_fuzz_module_id".into(),
        all_bodies: false,
    };
    let host = host::host_file(&db, tu, &opts);
    assert!(!host.text.is_empty() || !host.unsupported.is_empty());
});
