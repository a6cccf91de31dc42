//! Requires-expressions ([expr.prim.req]) in constant expressions: whether
//! each simple, type and compound requirement is well-formed in the
//! environment of the evaluation (a concept's arguments, a constrained
//! candidate's deduced arguments).
//!
//! The model types far more than it can prove ill-formed, so a requirement
//! is *false* only for failures that are certain — a member named on a
//! scalar, a member that a complete class (and its resolved bases) does not
//! have, `typename X::y` with `X` a scalar or a class without `y`, a
//! compound requirement's concept-id evaluating to false — and *unknown*
//! when the expression merely fails to type. Nested requirements are the
//! interpreter's (`consteval/interp.rs`).

use super::*;
use crate::body::Requirement;
use crate::templates::ClassRefT as Class;

/// `Some(true)` when every requirement but the nested ones holds,
/// `Some(false)` when one certainly does not, `None` otherwise (or when the
/// environment is still dependent).
pub(crate) fn requires_satisfied(
    cx: LowerCx<'_>,
    body: &Body,
    params: &[LocalId],
    reqs: &[Requirement],
) -> Option<bool> {
    let db = cx.db;
    if cx.env.is_some_and(|e| e.names.iter().any(|(_, a)| has_placeholder(db, a) || dependent_arg(db, a))) {
        return None;
    }
    let mut inf = Infer::type_level(cx, body);
    inf.res.expr_tys = vec![None; body.exprs.len()];
    inf.res.categories = vec![Category::PRValue; body.exprs.len()];
    inf.res.local_tys = vec![None; body.locals.len()];
    for &p in params {
        let t = inf.local_declared_ty(p, None);
        inf.res.local_tys[p.0 as usize] = Some(t);
        inf.bind_local(p);
    }
    let mut all = Some(true);
    for r in reqs {
        let v = match r {
            Requirement::Simple(e) => expr_holds(&mut inf, *e),
            Requirement::Type(t) => type_holds(&inf, t),
            Requirement::Compound { expr, constraint } => match (expr_holds(&mut inf, *expr), constraint) {
                (Some(true), Some(c)) => concept_holds(&inf, *expr, c),
                (v, _) => v,
            },
            Requirement::Nested(_) => continue,
        };
        match v {
            Some(false) => return Some(false),
            Some(true) => {}
            None => all = None,
        }
    }
    all
}

fn dependent_arg(db: &dyn SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Dependent(_) => true,
        TemplateArg::Pack(v) => v.iter().any(|x| dependent_arg(db, x)),
        TemplateArg::Type(t) => matches!(canonical(db, *t).kind(db), TyKind::Dependent(_)),
        _ => false,
    }
}

/// Types `e`; false when it certainly is ill-formed, unknown when its type
/// is an error for another reason.
fn expr_holds(inf: &mut Infer<'_>, e: ExprId) -> Option<bool> {
    let before = inf.res.calls.len();
    let t = inf.expr(e);
    // Overload resolution selected a deleted function (a poison pill such
    // as `template<class T> void swap(T&, T&) = delete;`): ill-formed, as
    // `__is_constructible` decides (`infer/constructible.rs`).
    if inf.res.calls[before..].iter().any(|(_, c)| matches!(c, Callee::Unresolved(Unresolved::Deleted(_)))) {
        return Some(false);
    }
    // A call whose selected function's constraints are false: overload
    // resolution keeps a lone candidate so in a body (the program compiled,
    // the model is likelier wrong), but in a requirement it is the failure
    // being asked about (`range<T>`'s `ranges::begin(__t)` with `T` an
    // iterator: `_Begin::operator()`'s constraints are false).
    let db = inf.db;
    let unsatisfied = |c: &Callee| match c {
        Callee::Entity(Entity::FnInst(i)) => {
            i.decl(db).data(db).is_some_and(|d| !d.constraints.is_empty())
                && constraints::constraints_satisfied(db, *i) == Some(false)
        }
        _ => false,
    };
    if inf.res.calls[before..].iter().any(|(_, c)| unsatisfied(c)) {
        return Some(false);
    }
    if certainly_ill_formed(inf, e, 0) {
        return Some(false);
    }
    if ty_has_error(db, t, 0) || matches!(canonical(db, t).kind(db), TyKind::Dependent(_)) {
        return None;
    }
    Some(true)
}

/// A member access somewhere in `e` whose object certainly has no such member.
fn certainly_ill_formed(inf: &Infer<'_>, e: ExprId, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    let db = inf.db;
    let sub = |x: ExprId| certainly_ill_formed(inf, x, depth + 1);
    match inf.body.expr(e) {
        Expr::Member { base, arrow, name } => {
            if sub(*base) {
                return true;
            }
            let Some(bt) = inf.res.ty(*base) else { return false };
            let mut t = strip_cv(db, canonical(db, bt));
            if *arrow {
                match t.kind(db) {
                    TyKind::Ptr(x) => t = strip_cv(db, canonical(db, *x)),
                    // `operator->` of a class: not followed here.
                    _ => {
                        return !matches!(t.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_))
                            && is_concrete_scalar(db, t);
                    }
                }
            }
            let Some(last) = name.last() else { return false };
            match inf.class_ref(t) {
                Some(c) => lacks_member(inf, c, &norm_name(last)),
                None => is_concrete_scalar(db, t),
            }
        }
        Expr::Call { callee, args } => {
            sub(*callee)
                || args.iter().any(|a| sub(*a))
                || super::certain_deduction::call_certainly_fails(inf, e, *callee, args)
                || super::certain_deduction::member_call_certainly_fails(inf, e, *callee, args)
        }
        Expr::Unary { expr, .. } | Expr::Cast { expr, .. } | Expr::SizeofExpr(expr) | Expr::Noexcept(expr) => {
            sub(*expr)
        }
        Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } | Expr::Comma { lhs, rhs } => {
            sub(*lhs) || sub(*rhs)
        }
        Expr::Index { base, index } => sub(*base) || sub(*index),
        Expr::Cond { cond, then, els } => sub(*cond) || sub(*then) || sub(*els),
        _ => false,
    }
}

/// A type that has no members at all: builtins, pointers, enums, and
/// arrays, functions and pointers to members whatever their element
/// (`__t.begin()` with `__t` an `int(&)[4]`: a range concept's member
/// requirement on an array).
fn is_concrete_scalar(db: &dyn SourceDatabase, t: TyId) -> bool {
    matches!(
        t.kind(db),
        TyKind::Builtin(_)
            | TyKind::Ptr(_)
            | TyKind::Enum(_)
            | TyKind::Array(..)
            | TyKind::Func(_)
            | TyKind::MemPtr { .. }
    )
}

/// Whether a complete class, every base of which resolves, has no member
/// (data member, function, static member, type) named `name`.
fn lacks_member(inf: &Infer<'_>, c: Class, name: &str) -> bool {
    let db = inf.db;
    if !closed(db, c, 0) {
        return false;
    }
    inf.field_ty(c, name).is_none()
        && instances::member_fns(db, c, name).is_empty()
        && templates::member_of(db, c, name, Ns::Value, 0).is_none()
        && templates::member_of(db, c, name, Ns::Type, 0).is_none()
}

/// A class defined in the unit whose bases all resolve (to classes with
/// the same property): member lookup in it is complete.
fn closed(db: &dyn SourceDatabase, c: Class, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    let k = match c {
        Class::Class(k) => k,
        Class::Inst(i) => i.class(db),
    };
    let tree = item_tree_of(db, k.item(db));
    if !tree.classes.get(k.idx(db) as usize).is_some_and(|d| d.is_definition) {
        return false;
    }
    templates::class_bases_of(db, c)
        .iter()
        .all(|b| b.error.is_none() && b.class.is_some_and(|bc| closed(db, bc, depth + 1)))
}

/// `typename X::y`: false when `X` is a scalar, or a closed class without `y`.
fn type_holds(inf: &Infer<'_>, t: &TypeRef) -> Option<bool> {
    let db = inf.db;
    let ty = inf.lower(t);
    if !ty_has_error(db, ty, 0) && !matches!(canonical(db, ty).kind(db), TyKind::Dependent(_)) {
        return Some(true);
    }
    let TypeRef::Path(p) = t else { return None };
    if p.segments.len() < 2 {
        return None;
    }
    let mut q = p.clone();
    let last = q.segments.pop()?;
    let qt = strip_cv(db, canonical(db, inf.lower(&TypeRef::Path(q))));
    match inf.class_ref(qt) {
        Some(c) => lacks_member(inf, c, &last.name).then_some(false),
        None => is_concrete_scalar(db, qt).then_some(false),
    }
}

/// `{ e } -> C<A…>`: `C<decltype((e)), A…>`.
fn concept_holds(inf: &Infer<'_>, e: ExprId, c: &Path) -> Option<bool> {
    let db = inf.db;
    let t = inf.res.ty(e)?;
    let cat = inf.res.categories.get(e.0 as usize).copied().unwrap_or(Category::PRValue);
    let t = match cat {
        Category::LValue => mk(db, TyKind::LRef(t)),
        Category::XValue => mk(db, TyKind::RRef(t)),
        Category::PRValue => t,
    };
    let mut bare = c.clone();
    let written = bare.segments.last_mut()?.args.take().unwrap_or_default();
    let Some(Def::VarTemplate(vt)) = scopes::resolve_path(db, inf.map, inf.scope, &bare, Ns::Value) else {
        return None;
    };
    let tree = item_tree_of(db, vt.item(db));
    let data = tree.var_templates.get(vt.idx(db) as usize)?;
    let cx = inf.lcx();
    if data.tparams.iter().any(|p| p.pack) {
        return None;
    }
    let mut args = vec![TemplateArg::Type(t)];
    for (p, w) in data.tparams.iter().skip(1).zip(&written) {
        args.push(templates::lower_arg(cx, &p.kind, w).ok()?);
    }
    crate::consteval::var_template::eval_with_args(cx, vt, args).map(|v| v.v != 0)
}
