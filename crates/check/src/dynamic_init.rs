//! `dynamic initialization is not supported for a %s variable` (3518, an
//! error of cicc's front end; spec 61): a namespace-scope `__device__`,
//! `__constant__` or `__managed__` variable whose initializer calls a
//! function that is not `constexpr`, at the variable's name. Checked
//! against the real nvcc (a call anywhere in the initializer, inside an
//! arithmetic expression or a braced list, of a host or device function).
//!
//! Certainty: only a call `infer` resolved to a function that no
//! declaration makes `constexpr`, evaluated (not in `sizeof`, `alignof`,
//! `noexcept` or `typeid` operands, nor in a lambda's body). Constructors
//! are not judged (EDG accepts an empty constructor), nor are variables
//! of templates.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::VarId;
use cufront_hir::body::{Body, Expr, ExprId};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_hir::instances::VarDecl;
use cufront_hir::scopes::{DeclKey, def_map};
use cufront_syntax::SyntaxNode;

use crate::Raw;

const NO_DYNAMIC_INIT: DiagId = DiagId(3518);

/// The finding on one variable's initializer (offset relative to the item).
#[salsa::tracked(returns(clone))]
pub fn var_dynamic_init_findings(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<Raw>> {
    let item = v.item(db);
    let tree = cufront_hir::item_tree_of(db, item);
    let Some(data) = tree.vars.get(v.idx(db) as usize) else { return Arc::default() };
    let a = data.linkage.cuda;
    let space = if a.shared {
        return Arc::default();
    } else if a.managed {
        "__managed__"
    } else if a.constant {
        "__constant__"
    } else if a.device {
        "__device__"
    } else {
        return Arc::default();
    };
    let map = def_map(db, item.tu(db));
    let Some(&scope) = map.parent.get(&DeclKey::Var(v)) else { return Arc::default() };
    let mut s = Some(scope);
    while let Some(k) = s {
        if map.templated.contains(&k) {
            return Arc::default();
        }
        s = map.scope(k).parent;
    }
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    if !body.exprs.iter().any(|e| matches!(e, Expr::Call { .. })) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Var(v));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let unevaluated = unevaluated(&body);
    let dynamic = r.calls.iter().any(|(site, callee)| {
        let (CallSite::Expr(e), Callee::Entity(callee)) = (site, callee) else { return false };
        matches!(body.expr(*e), Expr::Call { .. })
            && !unevaluated.contains(e)
            && matches!(callee, cufront_hir::Entity::Fn(_) | cufront_hir::Entity::FnInst(_))
            && !crate::names::is_constexpr(db, *callee)
            && !is_constructor(db, *callee)
    });
    if !dynamic {
        return Arc::default();
    }
    let Some(src) = cufront_hir::item_source(db, item).as_ref() else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let Some(&at) = cufront_hir::item_offsets(db, item).vars.get(v.idx(db) as usize) else { return Arc::default() };
    let Some(at) = crate::device_decls::name_caret(&root, at) else { return Arc::default() };
    let args = vec![Arg::Str(space.into())];
    Arc::new(vec![Raw { at, id: NO_DYNAMIC_INIT, severity: Severity::Error, args }])
}

fn is_constructor(db: &dyn SourceDatabase, e: cufront_hir::Entity) -> bool {
    let decl = match e {
        cufront_hir::Entity::Fn(f) => cufront_hir::instances::FnDecl::Fn(f),
        cufront_hir::Entity::FnInst(i) => i.decl(db),
        _ => return true,
    };
    decl.data(db).is_none_or(|d| {
        !matches!(d.name, cufront_hir::item_tree::FnName::Ident(_) | cufront_hir::item_tree::FnName::Operator(_))
    })
}

/// The expressions of a body that are not evaluated: operands of
/// `sizeof`, `alignof`, `noexcept`, `typeid`, and everything inside a
/// lambda expression.
fn unevaluated(body: &Body) -> Vec<ExprId> {
    let mut out = Vec::new();
    for (i, e) in body.exprs.iter().enumerate() {
        match e {
            Expr::SizeofExpr(x) | Expr::AlignofExpr(x) | Expr::Noexcept(x) | Expr::TypeidExpr(x) => {
                let range = body.expr_ranges[x.0 as usize];
                out.extend(
                    (0..body.exprs.len() as u32)
                        .map(ExprId)
                        .filter(|y| range.contains_range(body.expr_ranges[y.0 as usize])),
                );
            }
            Expr::Lambda { .. } => {
                let range = body.expr_ranges[i];
                out.extend(
                    (0..body.exprs.len() as u32)
                        .map(ExprId)
                        .filter(|y| range.contains_range(body.expr_ranges[y.0 as usize])),
                );
            }
            _ => {}
        }
    }
    out
}
