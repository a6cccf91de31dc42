//! `static_assert`s that fail (EDG 1574 `static assertion failed with
//! "msg"`, 2784 without a message), at the `static_assert`, for the
//! asserts of the user's code that are evaluated where they are written:
//! at namespace scope, in non-template classes and in non-template
//! function bodies. Templated asserts (evaluated per instance) are not
//! reported yet. Only a `false` result is reported: an assert the
//! interpreter cannot evaluate gives nothing.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::ItemId;
use cufront_hir::scopes::def_map;
use cufront_hir::static_asserts::{self, Context, ItemAssert, Outcome, StaticAssert};

use crate::Raw;

const FAILED_WITH: DiagId = DiagId(1574);
const FAILED: DiagId = DiagId(2784);

/// The failing asserts of one item (offsets relative to the item).
#[salsa::tracked(returns(clone))]
pub fn item_assert_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let asserts = static_asserts::item_asserts(db, item);
    if asserts.is_empty() {
        return Arc::default();
    }
    let tu = item.tu(db);
    let map = def_map(db, tu);
    let mut out = Vec::new();
    for (i, a) in asserts.iter().enumerate() {
        let context = static_asserts::assert_context(db, &map, item, a);
        if !matches!(context, Context::Namespace(_) | Context::Class(_) | Context::Function(..)) {
            continue;
        }
        let sa = StaticAssert { item, index: i as u32, offset: a.at, context };
        if static_asserts::evaluate(db, tu, &sa) != Outcome::False {
            continue;
        }
        let (id, args) = message(a);
        out.push(Raw { at: a.at, id, severity: Severity::Error, args });
    }
    Arc::new(out)
}

/// The error of a failing assert: with its message, or without one.
pub(crate) fn message(a: &ItemAssert) -> (DiagId, Vec<Arg>) {
    match &a.message {
        Some(m) => (FAILED_WITH, vec![Arg::Str(literal_text(m).unwrap_or_else(|| m.clone()))]),
        None => (FAILED, Vec::new()),
    }
}

/// The characters of a message written as ordinary string literals,
/// adjacent ones concatenated (`"a" "b"` → `ab`), escapes as written;
/// `None` for anything else (a prefix, a raw string).
fn literal_text(m: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = m.trim();
    while !rest.is_empty() {
        let body = rest.strip_prefix('"')?;
        let mut end = None;
        let mut escaped = false;
        for (i, c) in body.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let end = end?;
        out.push_str(&body[..end]);
        rest = body[end + 1..].trim_start();
    }
    Some(out)
}
