//! Designated initializers that break C++20's rules, which EDG applies in
//! every language mode ([dcl.init.aggr]/3.1): a member designated after a
//! later one was initialized (`{.b = 1, .a = 2}`, 2904 "out-of-order
//! initializers are nonstandard in C++"), a member designated twice or a
//! second member of a union (2906 "duplicate designator is not allowed"),
//! both at the designator's name; from C++20 on (before, EDG takes C99's
//! rules, which allow it), designated and plain elements in one list (2903
//! "mixing designated and non-designated initializers is nonstandard in
//! C++"), once per list, at the value of the first element unlike the
//! first one. All are errors.
//!
//! The walk is `infer`'s (`infer/aggregate.rs`): it knows which aggregate
//! a list initializes. Lists it does not model (array or chained
//! designators, unknown members, bases, too many values) and bodies it
//! does not type (templates: EDG is silent in instances too) give nothing.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{DiagId, Severity};
use cufront_hir::body::Body;
use cufront_hir::infer::{self, DesignationError, InferOwner, InferenceResult};
use cufront_hir::instances::{FnDecl, VarDecl};
use cufront_hir::{FnId, ItemId, VarId};

use crate::Raw;

const MIXED: DiagId = DiagId(2903);
const OUT_OF_ORDER: DiagId = DiagId(2904);
const DUPLICATE: DiagId = DiagId(2906);

/// The findings of one function's body (offsets relative to its item).
#[salsa::tracked(returns(clone))]
pub fn fn_designation_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let body = infer::decl_body(db, FnDecl::Fn(f));
    if !designated(&body) {
        return Arc::default();
    }
    findings(db, f.item(db), &body, &infer::infer(db, InferOwner::Fn(f)))
}

/// The same for a namespace-scope variable's initializer.
#[salsa::tracked(returns(clone))]
pub fn var_designation_findings(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<Raw>> {
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    if !designated(&body) {
        return Arc::default();
    }
    findings(db, v.item(db), &body, &infer::infer(db, InferOwner::Var(v)))
}

fn designated(body: &Body) -> bool {
    body.exprs.iter().any(|e| matches!(e, cufront_hir::body::Expr::Designated { .. }))
}

fn findings(db: &dyn SourceDatabase, item: ItemId, body: &Body, r: &InferenceResult) -> Arc<Vec<Raw>> {
    if r.skipped.is_some() || r.designation_errors.is_empty() {
        return Arc::default();
    }
    let text = cufront_hir::consteval::interp::item_text(db, item);
    let cxx20 = item.tu(db).options(db).lang(db).standard >= cufront_base_db::LangStandard::Cxx20;
    let out = r
        .designation_errors
        .iter()
        .filter(|&&(_, error)| cxx20 || error != DesignationError::Mixed)
        .filter_map(|&(x, error)| {
            let start = u32::from(body.expr_ranges.get(x.0 as usize)?.start());
            let (id, at) = match error {
                DesignationError::Mixed => (MIXED, start),
                DesignationError::OutOfOrder => (OUT_OF_ORDER, name_after_dot(&text, start)?),
                DesignationError::Duplicate => (DUPLICATE, name_after_dot(&text, start)?),
            };
            Some(Raw { at, id, severity: Severity::Error, args: vec![] })
        })
        .collect();
    Arc::new(out)
}

/// The offset of the member name in a designator `.name` that starts at
/// `dot` (white space may separate them; anything else: None).
fn name_after_dot(text: &str, dot: u32) -> Option<u32> {
    let rest = text.get(dot as usize..)?.strip_prefix('.')?;
    let name = rest.trim_start();
    let first = name.chars().next()?;
    (first == '_' || first.is_alphabetic()).then_some(dot + 1 + (rest.len() - name.len()) as u32)
}
