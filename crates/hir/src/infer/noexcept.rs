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
//! `noexcept(<expression>)` callee whose condition does not evaluate, a
//! call through a pointer or closure, or a `throw` in the operand's text
//! make it unknown, never false.

use super::*;
use crate::item_tree::ConstExpr;

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
/// said), others only with `noexcept`/`noexcept(true)`; an implicit copy or
/// move constructor or assignment is non-throwing when every special member
/// of a subobject it calls is ([except.spec]/8: thrust's `zip_iterator`
/// copies, which make libcu++'s `__tuple_impl` pick its
/// `__all_nothrow_constructible`).
fn entity_noexcept(db: &dyn SourceDatabase, x: Entity) -> Option<bool> {
    let d = match x {
        Entity::Fn(f) => FnDecl::Fn(f),
        Entity::FnInst(i) => i.decl(db),
        Entity::Inherited(ic) => return entity_noexcept(db, ic.base(db)),
        Entity::Special(s) => return *special_noexcept(db, s),
        _ => return None,
    };
    let data = d.data(db)?;
    if matches!(data.name, FnName::Dtor) || data.ty.noexcept {
        return Some(true);
    }
    // A copy or move constructor defaulted where it is declared, with no
    // exception specification of its own, has the implicit one's
    // (libcu++'s `tuple(const tuple&) = default;`).
    if data.defaulted
        && data.noexcept_expr.is_none()
        && let Some(class) = instances::ctor_class(db, x)
    {
        let kind = if instances::own_ref_param(db, class, &data.ty.params, true) {
            instances::SpecialKind::CopyCtor
        } else if instances::own_ref_param(db, class, &data.ty.params, false) {
            instances::SpecialKind::MoveCtor
        } else {
            return None;
        };
        return *special_noexcept(db, instances::SpecialMemberId::new(db, class, kind));
    }
    // `noexcept(<expression>)`: the condition decides, evaluated where
    // the function is declared (a member of a class template instance or
    // a function template specialization in its instance's environment:
    // libstdc++'s `_M_bucket_index` is `noexcept(noexcept(_Hash()(k)))`).
    if let Some(e) = &data.noexcept_expr {
        return match x {
            Entity::FnInst(i) => *instance_noexcept(db, i),
            _ => {
                let scope = instances::fn_scope(db, d)?;
                let map = def_map(db, d.tu(db));
                let cx = LowerCx { db, map: &map, item: d.item(db), scope, env: None };
                condition(cx, e)
            }
        };
    }
    Some(false)
}

/// Whether an implicit special member is non-throwing: the destructor
/// always; a copy or move constructor or assignment when every subobject's
/// special member it uses is (a trivial one is no call); a default
/// constructor, whose default member initializers may throw, is not
/// decided.
#[salsa::tracked(cycle_result = special_noexcept_cycle)]
pub(crate) fn special_noexcept(db: &dyn SourceDatabase, s: instances::SpecialMemberId) -> Option<bool> {
    use instances::SpecialKind as K;
    match s.kind(db) {
        K::Dtor => return Some(true),
        K::DefaultCtor => return None,
        K::CopyCtor | K::MoveCtor | K::CopyAssign | K::MoveAssign => {}
    }
    let mut known = true;
    for e in instances::special_required(db, s) {
        match entity_noexcept(db, e) {
            Some(true) => {}
            Some(false) => return Some(false),
            None => known = false,
        }
    }
    known.then_some(true)
}

fn special_noexcept_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _s: instances::SpecialMemberId) -> Option<bool> {
    None
}

/// The value of the `noexcept(<expression>)` condition of a function
/// template specialization or a member of a class template instance.
#[salsa::tracked(cycle_result = instance_noexcept_cycle)]
pub(crate) fn instance_noexcept(db: &dyn SourceDatabase, inst: FnInstanceId) -> Option<bool> {
    let decl = inst.decl(db);
    let e = decl.data(db)?.noexcept_expr.clone()?;
    let env = instances::instance_env(db, inst).ok()?;
    let scope = instances::fn_scope(db, decl)?;
    let map = def_map(db, decl.tu(db));
    let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    condition(cx, &e)
}

/// A condition that needs its own value (ill-formed) is not decided.
fn instance_noexcept_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _inst: FnInstanceId) -> Option<bool> {
    None
}

/// A condition evaluated one instantiation level deeper (a chain of
/// conditions naming other conditioned functions ends at the depth limit).
fn condition(cx: LowerCx<'_>, e: &ConstExpr) -> Option<bool> {
    templates::nested(|| Ok(super::constraints::truth(cx, e))).ok().flatten()
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
