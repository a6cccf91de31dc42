//! `case label value has already appeared in this switch %p` (EDG 1578,
//! an error): two `case` labels of one `switch` with the same value, at the
//! second one's value.
//!
//! Certainty: the values compared are the constants `constants::fold`
//! folds (integer and character literals under built-in operators and
//! casts); a label whose value it cannot fold (an enumerator, a named
//! constant) is left out, so only a sure duplicate is reported. The
//! labels of a nested `switch` belong to it.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_hir::FnId;
use cufront_hir::body::{Body, Stmt, StmtId};
use cufront_hir::instances::FnDecl;

/// Each duplicate label of one body: where its value is and where the
/// first label with that value is (offsets relative to the item).
#[salsa::tracked(returns(clone))]
pub fn fn_duplicate_cases(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<(u32, u32)>> {
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    let mut out = Vec::new();
    for s in &body.stmts {
        if let Stmt::Switch { body: b, .. } = s {
            let mut seen: Vec<(i128, u32)> = Vec::new();
            labels(&body, *b, &mut |value, at| match seen.iter().find(|(v, _)| *v == value) {
                Some(&(_, first)) => out.push((at, first)),
                None => seen.push((value, at)),
            });
        }
    }
    out.sort();
    Arc::new(out)
}

/// The folded `case` values of one switch body, in order, without
/// descending into nested switches.
fn labels(body: &Body, s: StmtId, f: &mut dyn FnMut(i128, u32)) {
    match body.stmt(s) {
        Stmt::Case { value, stmt } => {
            if let Some(c) = crate::constants::fold(body, *value, 0) {
                f(c.v, u32::from(body.expr_ranges[value.0 as usize].start()));
            }
            labels(body, *stmt, f);
        }
        Stmt::Compound(v) => v.iter().for_each(|&c| labels(body, c, f)),
        Stmt::Label { stmt, .. } | Stmt::Default(stmt) => labels(body, *stmt, f),
        Stmt::If { init, then, els, .. } => {
            init.iter().for_each(|&c| labels(body, c, f));
            labels(body, *then, f);
            els.iter().for_each(|&c| labels(body, c, f));
        }
        Stmt::While { body: b, .. } | Stmt::Do { body: b, .. } => labels(body, *b, f),
        Stmt::For { body: b, .. } | Stmt::RangeFor { body: b, .. } => labels(body, *b, f),
        Stmt::Try { body: b, handlers } => {
            labels(body, *b, f);
            handlers.iter().for_each(|h| labels(body, h.body, f));
        }
        _ => {}
    }
}
