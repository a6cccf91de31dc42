//! `%npd cannot be referenced -- it is a deleted function` (EDG 1776), an
//! error: overload resolution selected a function defined `= delete`
//! ([dcl.fct.def.delete]/2); `the default constructor of %t cannot be
//! referenced -- it is a deleted function` (1790) when that function
//! default-constructs a variable (`U u;`, `U a[2];`). Checked against the
//! real front end: the caret goes to the name called (`f(1)`, the member
//! name of `s.g()`), to a variable's initializer (its first argument in
//! `T t(1, 2)`, the `= 3` of `T t = 3`), or to a default-constructed
//! variable's name; the function is named with its parameters
//! (`"S::S(int)"`) and the line of its declaration.
//!
//! Certainty: hir's overload resolution reports the deleted winner as a
//! typed case (`Unresolved::Deleted`), in a body `infer` did not skip.
//! Only plain functions and members of plain classes are reported: EDG
//! names a template instance with its arguments (`t(T) [with T=int]`),
//! which `names` does not spell yet.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity, EntityKind, Severity};
use cufront_hir::body::{Expr, ExprId, Init};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, Unresolved};
use cufront_hir::instances::FnDecl;
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{Entity as HirEntity, FnId, item_offsets};

use crate::{Found, calls, names, spell};

const DELETED: DiagId = DiagId(1776);
const DELETED_DEFAULT: DiagId = DiagId(1790);

/// A call of a deleted function: the caret (relative to the caller's item)
/// and the function; `default_of` names the class (as EDG spells it) when
/// the call default-constructs a variable (EDG's message 1790 then).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeletedCall {
    pub at: u32,
    pub callee: FnId,
    pub default_of: Option<String>,
}

/// The calls of deleted functions in one body, in the order `infer` met them.
#[salsa::tracked(returns(clone))]
pub fn fn_deleted_calls(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<DeletedCall>> {
    let body = infer::decl_body(db, FnDecl::Fn(f));
    if body.root.is_none() {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let mut out = Vec::new();
    for (site, callee) in &r.calls {
        let Callee::Unresolved(Unresolved::Deleted(e @ HirEntity::Fn(callee))) = callee else { continue };
        let start = |x: ExprId| body.expr_ranges.get(x.0 as usize).map(|r| u32::from(r.start()));
        let (at, default_of) = match site {
            // A variable: at its name when default-constructed, else at
            // the initializer (the first argument of a parenthesized one).
            CallSite::Local(l) => {
                let name = body.local_names.get(l.0 as usize).copied().flatten().map(|r| u32::from(r.start()));
                match &body.local(*l).init {
                    Init::None => {
                        let class = r.local_tys.get(l.0 as usize).copied().flatten().map(|t| strip_array(db, t));
                        let Some(spelled) = class.and_then(|t| spell::spell(db, t)) else { continue };
                        (name, Some(spelled))
                    }
                    Init::Paren(args) => (args.first().and_then(|&a| start(a)), None),
                    Init::Assign(x) => (start(*x), None),
                    // At the `{`, which the body does not record.
                    Init::Brace(_) => continue,
                }
            }
            // A new-expression's caret goes to its `(`, which the body
            // does not record.
            CallSite::Expr(x) if matches!(body.expr(*x), Expr::New { .. }) => continue,
            CallSite::Expr(_) => (Some(calls::caret(db, &body, *site, *e).0), None),
            // Implicit calls without a place of their own (member
            // initializers, a destructor's members) are left alone.
            CallSite::MemInit(_) | CallSite::Owner => continue,
        };
        let Some(at) = at else { continue };
        out.push(DeletedCall { at, callee: *callee, default_of });
    }
    Arc::new(out)
}

/// The element type of (nested) arrays; other types as they are.
fn strip_array(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match canonical(db, t).kind(db) {
        TyKind::Array(elem, _) => strip_array(db, *elem),
        _ => t,
    }
}

/// The finding for a deleted call found in an item that starts at `start`;
/// `starts` gives where each item of the unit starts (the callee's item may
/// be any, a system header's included).
pub(crate) fn finding(
    db: &dyn SourceDatabase,
    tu: TranslationUnit,
    starts: &rustc_hash::FxHashMap<cufront_hir::ItemId, u32>,
    call: &DeletedCall,
    start: u32,
) -> Option<Found> {
    let at = start + call.at;
    let (id, args) = match &call.default_of {
        Some(class) => (DELETED_DEFAULT, vec![Arg::Type { spelling: class.clone(), aka: None }]),
        None => {
            let name = names::callee_name(db, HirEntity::Fn(call.callee))?;
            let item = call.callee.item(db);
            let rel = *item_offsets(db, item).fns.get(call.callee.idx(db) as usize)?;
            let declared = starts.get(&item)? + rel;
            let entity = Entity {
                kind: Some(EntityKind::Function),
                name: name.bare,
                with_params: Some(name.display),
                declared_at: Some(crate::redefinition::position(db, tu, declared)),
                ..Entity::default()
            };
            (DELETED, vec![Arg::Entity(entity)])
        }
    };
    Some(Found::new(at, id, Severity::Error, args))
}
