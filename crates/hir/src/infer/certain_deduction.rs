//! Calls that certainly have no viable candidate, for requires-expressions
//! (`requires.rs`): every function found for an unqualified call (ordinary
//! lookup and argument-dependent lookup) either takes another number of
//! arguments or has a parameter `X<…>` (a template-id with parameters to
//! deduce, maybe cv- and reference-qualified) whose argument is a complete
//! class that neither is nor derives from a specialization of `X`
//! ([temp.deduct.call]/4.3 fails). libstdc++'s
//! `__is_derived_from_view_interface<vector<int>>` (`enable_view`) is such
//! a requirement: false, so `view<vector<int>>` is.

use super::*;

/// Whether call `e` of `callee(args)` certainly finds no viable function.
pub(super) fn call_certainly_fails(inf: &Infer<'_>, e: ExprId, callee: ExprId, args: &[ExprId]) -> bool {
    let db = inf.db;
    let Expr::Path(p) = inf.body.expr(callee).clone() else { return false };
    if p.global || p.segments.len() != 1 || p.segments[0].args.is_some() {
        return false;
    }
    if !inf.res.calls.iter().any(|(s, c)| *s == CallSite::Expr(e) && matches!(c, Callee::Unresolved(_))) {
        return false;
    }
    let name = norm_name(&p.segments[0].name);
    if inf.find_local(&name).is_some() {
        return false;
    }
    let mut a = Vec::new();
    for &x in args {
        let Some(t) = inf.res.ty(x) else { return false };
        if ty_has_error(db, t, 0) || matches!(canonical(db, t).kind(db), TyKind::Dependent(_)) {
            return false;
        }
        let cat = inf.res.categories.get(x.0 as usize).copied().unwrap_or(Category::PRValue);
        a.push(Arg { ty: t, cat, null: false, braced: false });
    }
    let mut cands: Vec<FnDecl> = scopes::lookup_fns(db, inf.map, inf.scope, &name);
    if cands.is_empty() {
        return false;
    }
    for (c, _) in inf.adl(&name, &a) {
        if !cands.contains(&c) {
            cands.push(c);
        }
    }
    cands.into_iter().all(|c| candidate_certainly_fails(inf, c, &a))
}

/// Whether member call `e` (`base.name(args)`, `base->name(args)`)
/// certainly finds no viable function: the object's class is closed (every
/// base resolves), has no data member of that name, and every member
/// function of that name is certainly not viable for the object or the
/// arguments — it takes another number of arguments, the object is const
/// and the function is a non-static member that is not, or it is a member
/// of a class template specialization whose constraints are false there
/// (`view_interface<D>::size() requires forward_range<D> && …` for a
/// `filter_view`, so `sized_range<filter_view<…>>` is false).
pub(super) fn member_call_certainly_fails(inf: &Infer<'_>, e: ExprId, callee: ExprId, args: &[ExprId]) -> bool {
    let db = inf.db;
    let Expr::Member { base, arrow, name } = inf.body.expr(callee).clone() else { return false };
    if name.segments.len() != 1 || name.segments[0].args.is_some() {
        return false;
    }
    if !inf.res.calls.iter().any(|(s, c)| *s == CallSite::Expr(e) && matches!(c, Callee::Unresolved(_))) {
        return false;
    }
    let Some(bt) = inf.res.ty(base) else { return false };
    let mut t = canonical(db, bt);
    if arrow {
        match t.kind(db) {
            TyKind::Ptr(x) => t = canonical(db, *x),
            _ => return false,
        }
    }
    if let TyKind::LRef(x) | TyKind::RRef(x) = t.kind(db) {
        t = canonical(db, *x);
    }
    let object_const = matches!(t.kind(db), TyKind::Qualified(_, cv) if cv.c);
    let Some(class) = inf.class_ref(strip_cv(db, t)) else { return false };
    if !closed_class(db, class, 0) {
        return false;
    }
    let name = norm_name(&name.segments[0].name);
    if inf.field_ty(class, &name).is_some() {
        return false;
    }
    for &x in args {
        let Some(t) = inf.res.ty(x) else { return false };
        if ty_has_error(db, t, 0) || matches!(canonical(db, t).kind(db), TyKind::Dependent(_)) {
            return false;
        }
    }
    let cands = instances::member_fns(db, class, &name);
    !cands.is_empty()
        && cands.into_iter().all(|(c, outer)| {
            let Some(data) = c.data(db) else { return false };
            let n = data.ty.params.len();
            let fixed = !data.ty.variadic && data.ty.pack_params.is_empty() && data.pack_params.is_empty();
            if fixed && (args.len() > n || args.len() + (param_defaults(db, c) as usize) < n) {
                return true;
            }
            if object_const && !data.linkage.is_static && !data.ty.cv.c {
                return true;
            }
            match (c, outer) {
                (FnDecl::Fn(_), Some(outer)) if !data.constraints.is_empty() => {
                    let inst = instances::fn_instance(db, c, Some(outer), Vec::new());
                    constraints::constraints_satisfied(db, inst) == Some(false)
                }
                _ => false,
            }
        })
}

fn candidate_certainly_fails(inf: &Infer<'_>, c: FnDecl, args: &[Arg]) -> bool {
    let db = inf.db;
    let Some(data) = c.data(db) else { return false };
    if !data.outer_tparams.is_empty() || data.ty.variadic || !data.ty.pack_params.is_empty() {
        return false;
    }
    let n = data.ty.params.len();
    if args.len() > n || args.len() + (param_defaults(db, c) as usize) < n {
        return true;
    }
    let FnDecl::Template(_) = c else { return false };
    let Some(scope) = instances::fn_scope(db, c) else { return false };
    let tparams = c.tparams(db);
    if tparams.iter().any(|p| p.pack) {
        return false;
    }
    let mut env = Env::default();
    for (i, p) in tparams.iter().enumerate() {
        if let Some(nm) = &p.name {
            env.names.push((nm.clone(), placeholder(db, p, i as u32)));
        }
    }
    let cx = LowerCx { db, map: inf.map, item: c.item(db), scope, env: Some(&env) };
    data.ty.params.iter().zip(args).any(|(pref, a)| {
        let Ok(pt) = templates::nested(|| Ok(ty::lower(cx, pref))) else { return false };
        let pt = strip_ref_cv(db, pt);
        let TyKind::App(app) = pt.kind(db) else { return false };
        if !app.args(db).iter().any(|x| has_placeholder(db, x)) {
            return false;
        }
        let at = strip_ref_cv(db, a.ty);
        match inf.class_ref(at) {
            Some(class) => closed_class(db, class, 0) && !is_or_derives_from(db, at, app.template(db), 0),
            None => false,
        }
    })
}

fn strip_ref_cv(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let t = strip_cv(db, canonical(db, t));
    match t.kind(db) {
        TyKind::LRef(x) | TyKind::RRef(x) => strip_cv(db, canonical(db, *x)),
        _ => t,
    }
}

/// A class defined in the unit whose bases all resolve, recursively.
fn closed_class(db: &dyn SourceDatabase, c: ClassRefT, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    let k = c.pattern(db);
    if !item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).is_some_and(|d| d.is_definition) {
        return false;
    }
    templates::class_bases_of(db, c)
        .iter()
        .all(|b| b.error.is_none() && b.class.is_some_and(|bc| closed_class(db, bc, depth + 1)))
}

/// Whether class type `t` or one of its bases is a specialization of `template`.
fn is_or_derives_from(db: &dyn SourceDatabase, t: TyId, template: crate::ClassId, depth: u32) -> bool {
    if depth > 16 {
        return true;
    }
    let map = def_map(db, template.tu(db));
    let canon = |c: crate::ClassId| map.template_def.get(&c).copied().unwrap_or(c);
    let t = canonical(db, t);
    match t.kind(db) {
        TyKind::App(a) if canon(a.template(db)) == canon(template) => return true,
        TyKind::Inst(_) | TyKind::App(_) => {}
        TyKind::Class(_) => {}
        _ => return true,
    }
    let Ok(c) = templates::class_of(db, t) else { return true };
    if let Some(i) = match c {
        ClassRefT::Inst(i) => Some(i),
        ClassRefT::Class(_) => None,
    } {
        let k = i.class(db);
        if canon(k) == canon(template) || map.specializations.get(&canon(template)).is_some_and(|v| v.contains(&k)) {
            return true;
        }
    }
    templates::class_bases_of(db, c).iter().any(|b| match b.ty {
        Some(bt) => is_or_derives_from(db, bt, template, depth + 1),
        None => true,
    })
}
