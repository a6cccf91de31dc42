//! `too many arguments in function call` (EDG 140) and `too few arguments
//! in function call` (165), errors: a call of a function that is the only
//! one its name finds, with more arguments than it has parameters (at the
//! first extra argument) or fewer than it needs (at the closing
//! parenthesis); a launch configuration of more than four arguments (at
//! the fifth). Checked against the real front end.
//!
//! Certainty: only a call `infer` could not resolve, by an unqualified
//! name that ordinary lookup (`scopes::lookup_fns`) finds one function for
//! (its redeclarations aside; no template), with arguments of arithmetic
//! types only (no argument-dependent lookup can add a candidate), in a
//! body without block-scope declarations of names (a local `using` or
//! function declaration could). Default arguments count from any
//! declaration.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{DiagId, Severity};
use cufront_hir::FnId;
use cufront_hir::body::Expr;
use cufront_hir::exec_space;
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::scopes::{def_map, lookup_fns};
use cufront_hir::ty::{TyKind, canonical};

use crate::Raw;

const TOO_MANY: DiagId = DiagId(140);
const TOO_FEW: DiagId = DiagId(165);
const LAUNCH_PARAMS: usize = 4;

/// The calls of one body with a wrong number of arguments.
#[salsa::tracked(returns(clone))]
pub fn fn_arity_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    // A launch configuration is the argument list of a call with four
    // parameters (grid, block, shared memory, stream), whatever is launched.
    let mut out: Vec<Raw> = body
        .exprs
        .iter()
        .filter_map(|e| match e {
            Expr::KernelLaunch { config, .. } if config.len() > LAUNCH_PARAMS => {
                let at = u32::from(body.expr_ranges[config[LAUNCH_PARAMS].0 as usize].start());
                Some(Raw { at, id: TOO_MANY, severity: Severity::Error, args: vec![] })
            }
            _ => None,
        })
        .collect();
    if !body.local_decls.is_empty() {
        return Arc::new(out);
    }
    let calls: Vec<_> = body
        .exprs
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Expr::Call { callee, args } => match body.expr(*callee) {
                Expr::Path(p) if !p.global && p.segments.len() == 1 && p.segments[0].args.is_none() => {
                    Some((i, p.segments[0].name.clone(), args.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    if calls.is_empty() {
        return Arc::new(out);
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::new(out);
    }
    let Some(scope) = instances::fn_scope(db, decl) else { return Arc::new(out) };
    let map = def_map(db, decl.tu(db));
    for (i, name, args) in calls {
        let e = cufront_hir::body::ExprId(i as u32);
        let unresolved =
            r.calls.iter().any(|(site, c)| matches!((site, c), (CallSite::Expr(x), Callee::Unresolved(_)) if *x == e));
        let arithmetic = args.iter().all(|a| {
            r.expr_tys.get(a.0 as usize).copied().flatten().is_some_and(|t| {
                let t = canonical(db, t);
                match t.kind(db) {
                    TyKind::Builtin(_) => true,
                    TyKind::Qualified(inner, _) => matches!(canonical(db, *inner).kind(db), TyKind::Builtin(_)),
                    _ => false,
                }
            })
        });
        if !unresolved || !arithmetic {
            continue;
        }
        let Some(callee) = only_function(db, lookup_fns(db, &map, scope, &name)) else { continue };
        let Some(data) = callee.data(db) else { continue };
        let params = data.ty.params.len();
        let defaults = std::iter::once(callee)
            .chain(exec_space::redeclarations(db, callee))
            .filter_map(|d| match d {
                FnDecl::Fn(g) => {
                    cufront_hir::body::item_param_defaults(db, g.item(db)).0.get(g.idx(db) as usize).copied()
                }
                FnDecl::Template(_) => None,
            })
            .max()
            .unwrap_or(0) as usize;
        let range = body.expr_ranges[i];
        if args.len() > params && !data.ty.variadic {
            let at = u32::from(body.expr_ranges[args[params].0 as usize].start());
            out.push(Raw { at, id: TOO_MANY, severity: Severity::Error, args: vec![] });
        } else if args.len() + defaults < params {
            // The closing parenthesis ends the call expression.
            let at = u32::from(range.end()).saturating_sub(1);
            out.push(Raw { at, id: TOO_FEW, severity: Severity::Error, args: vec![] });
        }
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// The one function a lookup found (its redeclarations aside), when it is
/// one and no template.
pub(crate) fn only_function(db: &dyn SourceDatabase, found: Vec<FnDecl>) -> Option<FnDecl> {
    let first = *found.first()?;
    if !matches!(first, FnDecl::Fn(_)) {
        return None;
    }
    let same = exec_space::redeclarations(db, first);
    found.iter().all(|d| *d == first || same.contains(d)).then_some(first)
}
