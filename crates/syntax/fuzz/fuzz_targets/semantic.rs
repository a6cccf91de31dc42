//! Fuzz target: the semantic model over any unit. The text becomes a
//! translation unit of a fresh database; every query `cufront inspect`
//! runs is asked (item trees and scopes through `def_map`, linkage names
//! through `symbols::entities` — lowering, inference, mangling —, layouts of
//! every class and needed specialization, and every `static_assert`
//! evaluated: constant evaluation and instantiation). Nothing may panic,
//! abort or overflow the stack.
//!
//! Run: `cd crates/syntax/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run semantic CORPUS`.

#![no_main]

use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, new_options, new_translation_unit};
use cufront_hir::static_asserts;
use libfuzzer_sys::fuzz_target;

#[path = "common/alt_stack.rs"]
mod alt_stack;

fuzz_target!(init: alt_stack::install(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let db = RootDatabase::new();
    let standard = if data.first().is_some_and(|b| b & 1 == 1) { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    let opts = new_options(&db, LangOptions { standard, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "fuzz.ii".into(), Arc::from(text), opts);
    for (e, _name) in cufront_hir::symbols::entities(&db, tu) {
        let _ = cufront_hir::symbols::entity_info(&db, e);
    }
    let map = cufront_hir::def_map(&db, tu);
    for &c in &map.classes {
        let _ = cufront_hir::layout::render(&db, c);
    }
    for t in cufront_hir::templates::needed_specializations(&db, tu) {
        let _ = cufront_hir::layout::render_ty(&db, t);
    }
    let mut asserts = static_asserts::unit_asserts(&db, tu).to_vec();
    asserts.extend(static_asserts::instance_asserts(&db, tu).iter().cloned());
    for a in &asserts {
        let _ = static_asserts::evaluate(&db, tu, a);
    }
});
