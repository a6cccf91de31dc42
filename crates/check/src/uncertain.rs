//! Where the checks stay silent because the model does not understand
//! enough (the certainty invariant's other side): `cufront inspect
//! uncertain FILE.ii` lists each place with its reason, so that the
//! missing diagnostics can be counted and found.
//!
//! The places are those the checks read: a user function whose body
//! `infer` did not type (every body rule needs its types), a call `infer`
//! did not resolve (cross-space calls, `noreturn`, argument conversions),
//! and a body whose end the reachability walk could not decide (940).

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::FnId;
use cufront_hir::infer::{self, Callee, InferOwner};
use cufront_hir::instances::FnDecl;

/// Why a check could not decide, at one place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The body was not inferred (templated, or what inference gave up on).
    NotInferred(String),
    /// A call inference did not resolve; the callee as written.
    UnresolvedCall(String),
    /// Whether control reaches the end of a non-void function.
    UndecidedReturn,
}

/// One undecided place (offset in the unit's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uncertain {
    pub at: u32,
    pub reason: Reason,
}

/// The undecided places of one function (offsets relative to its item).
#[salsa::tracked(returns(clone))]
pub fn fn_uncertain(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Uncertain>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    let name_at = cufront_hir::body::item_fn_offsets(db, f.item(db)).get(f.idx(db) as usize).copied().unwrap_or(0);
    if body.root.is_none() {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    let mut out = Vec::new();
    if let Some(why) = &r.skipped {
        out.push(Uncertain { at: name_at, reason: Reason::NotInferred(why.clone()) });
        return Arc::new(out);
    }
    for (site, callee) in &r.calls {
        if let Callee::Unresolved(name) = callee
            && let Some(range) = crate::calls::site_range(&body, *site)
        {
            out.push(Uncertain { at: u32::from(range.start()), reason: Reason::UnresolvedCall(name.to_string()) });
        }
    }
    if let Some(at) = crate::flow::undecided_end(db, f) {
        out.push(Uncertain { at, reason: Reason::UndecidedReturn });
    }
    out.sort_by_key(|u| u.at);
    Arc::new(out)
}

/// Every undecided place of the user's functions (and function
/// templates), by item.
pub fn uncertain(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<Uncertain> {
    let mut out = Vec::new();
    for (item, start) in crate::calls::user_items(db, tu) {
        // Function templates: their instances are not checked.
        for &at in cufront_hir::item_offsets(db, item).fn_templates.iter() {
            out.push(Uncertain { at: start + at, reason: Reason::NotInferred("a function template".into()) });
        }
        for f in crate::calls::defined_functions(db, item) {
            out.extend(fn_uncertain(db, f).iter().map(|u| Uncertain { at: start + u.at, ..u.clone() }));
        }
    }
    out
}
