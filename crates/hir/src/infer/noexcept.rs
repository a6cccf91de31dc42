//! The `noexcept` operator ([expr.unary.noexcept]) in constant expressions:
//! `noexcept(e)` is false when `e` potentially throws, i.e. calls a
//! function that is not non-throwing ([except.spec]).
//!
//! libcu++'s `is_nothrow_constructible` is
//! `noexcept(_Tp(declval<_Args>()...))`; its value picks specializations
//! (`expected`'s `__expected_can_copy_assign`), so an operand left
//! unevaluated leaves whole class hierarchies unnamed.
//!
//! Invariant: the answer is `Some` only when every call in the operand is
//! resolved and each callee's exception specification is known: a
//! `noexcept(<expression>)` callee, a call through a pointer or closure,
//! or a `throw` in the operand's text make it unknown, never false.

use super::*;

/// Whether the operand `e` of `noexcept(e)` is non-throwing, inferred in
/// the environment of the evaluation; `None` when the model cannot tell.
pub(crate) fn noexcept_operand(cx: LowerCx<'_>, body: &Body, e: ExprId, text: &str) -> Option<bool> {
    let db = cx.db;
    if cx.env.is_some_and(|e| e.names.iter().any(|(_, a)| has_placeholder(db, a))) {
        return None;
    }
    if text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == "throw") {
        return None;
    }
    let mut inf = Infer::type_level(cx, body);
    inf.res.expr_tys = vec![None; body.exprs.len()];
    inf.res.categories = vec![Category::PRValue; body.exprs.len()];
    inf.res.local_tys = vec![None; body.locals.len()];
    let t = inf.expr(e);
    if ty_has_error(db, t, 0) || matches!(canonical(db, t).kind(db), TyKind::Dependent(_)) {
        return None;
    }
    let mut known = true;
    for (site, c) in &inf.res.calls {
        match c {
            Callee::Entity(x) => match entity_noexcept(db, *x) {
                Some(true) => {}
                Some(false) => return Some(false),
                None => known = false,
            },
            // A call through a function or pointer type (a function named
            // in a pack expansion is typed so): the type's `noexcept`.
            Callee::Builtin => {
                let CallSite::Expr(x) = site else { continue };
                let Expr::Call { callee, .. } = body.expr(*x) else { continue };
                if !callee_type_noexcept(db, &inf, *callee) {
                    known = false;
                }
            }
            Callee::Unresolved(_) => return None,
        }
    }
    known.then_some(true)
}

/// A function's declared exception specification: destructors are
/// non-throwing unless they say otherwise ([class.dtor]/4, taken as never
/// said), others only with `noexcept`/`noexcept(true)`; an implicit special
/// member or a conditional specification is not decided here.
fn entity_noexcept(db: &dyn SourceDatabase, x: Entity) -> Option<bool> {
    let d = match x {
        Entity::Fn(f) => FnDecl::Fn(f),
        Entity::FnInst(i) => i.decl(db),
        Entity::Inherited(ic) => return entity_noexcept(db, ic.base(db)),
        _ => return None,
    };
    let data = d.data(db)?;
    if matches!(data.name, FnName::Dtor) || data.ty.noexcept {
        return Some(true);
    }
    // `noexcept(<expression>)`: the template's to evaluate, so the
    // declared type says nothing either way.
    if data.noexcept_expr.is_some() {
        return None;
    }
    Some(false)
}

/// Whether the callee expression has a `noexcept` function type (or is a
/// pointer to one); a closure or an untyped callee is not known to be.
fn callee_type_noexcept(db: &dyn SourceDatabase, inf: &Infer<'_>, callee: ExprId) -> bool {
    let Some(Some(t)) = inf.res.expr_tys.get(callee.0 as usize) else { return false };
    let t = canonical(db, *t);
    let t = match t.kind(db) {
        TyKind::Ptr(x) => canonical(db, *x),
        _ => t,
    };
    matches!(t.kind(db), TyKind::Func(f) if f.noexcept)
}
