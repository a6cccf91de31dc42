//! Variable template specializations a constraint check instantiates and
//! g++ emits although nothing odr-uses them: those whose arguments name a
//! closure type of a function that is neither inline nor a template
//! (`is_class_v<main::{lambda(int)#1}>`, `enable_view<filter_view<…,
//! main::{lambda(int)#1}>>`). Such a specialization has no linkage, so g++
//! emits it as a local constant wherever it is instantiated (checked with
//! g++ 12 `nm`: `r std::is_class_v<s()::{lambda(long)#1}>`); with a closure
//! of an inline function or a template the same specialization is a comdat
//! that nobody odr-uses, and is not emitted.
//!
//! The constraints of a function instance are evaluated as overload
//! resolution does ([`constraints_satisfied`]), but lazily as [temp.constr]
//! checks them: a conjunction stops at its first false operand, a
//! disjunction at its first true one, so only the atomic constraints g++
//! substitutes are evaluated. What the evaluation instantiates is recorded
//! (`consteval::var_template::recording`).
//!
//! The same specializations come from elsewhere too, and are recorded the
//! same way: `infer` records its whole body's inference (the constraints
//! of candidates overload resolution rejects, requires-expressions, and
//! what the memoized queries it asks evaluated, which return their uses
//! with their values), and a call selecting a function instantiates its
//! `noexcept(expr)` ([`noexcept_var_uses`]). These queries keep their
//! preparation (the instance's environment) out of their lists
//! (`var_template::isolated`).

use super::*;
use crate::consteval::var_template;
use crate::item_tree::{BinOp, ConstExpr};

/// The emitted variable template specializations that checking the
/// constraints of `inst` instantiates (see the module comment), in
/// first-use order.
#[salsa::tracked(returns(clone))]
pub fn constraint_var_uses(db: &dyn SourceDatabase, inst: FnInstanceId) -> Vec<Entity> {
    var_template::isolated(|| constraint_var_uses_of(db, inst))
}

fn constraint_var_uses_of(db: &dyn SourceDatabase, inst: FnInstanceId) -> Vec<Entity> {
    let decl = inst.decl(db);
    let Some(data) = decl.data(db) else { return Vec::new() };
    if data.constraints.is_empty() {
        return Vec::new();
    }
    let Ok(env) = instances::instance_env(db, inst) else { return Vec::new() };
    let Some(scope) = instances::fn_scope(db, decl) else { return Vec::new() };
    let map = def_map(db, decl.tu(db));
    let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    emitted(db, cx, &data.constraints)
}

/// As [`constraint_var_uses`], for the constraints of the class template
/// (primary or partial specialization) that `inst` specializes: naming the
/// specialization checks them.
#[salsa::tracked(returns(clone))]
pub fn class_constraint_var_uses(db: &dyn SourceDatabase, inst: InstId) -> Vec<Entity> {
    var_template::isolated(|| class_constraint_var_uses_of(db, inst))
}

fn class_constraint_var_uses_of(db: &dyn SourceDatabase, inst: InstId) -> Vec<Entity> {
    let class = inst.class(db);
    let tree = item_tree_of(db, class.item(db));
    let Some(data) = tree.classes.get(class.idx(db) as usize) else { return Vec::new() };
    if data.constraints.is_empty() {
        return Vec::new();
    }
    let Ok(env) = templates::inst_env(db, inst) else { return Vec::new() };
    let map = def_map(db, class.item(db).tu(db));
    let scope = map.parent.get(&DeclKey::Class(class)).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map: &map, item: class.item(db), scope, env: Some(&env) };
    emitted(db, cx, &data.constraints)
}

/// As [`class_constraint_var_uses`], for everything completing `inst`
/// names: the specializations among its bases and the classes of its
/// non-static data members are named by its definition, so g++ checks
/// their constraints too (`view_interface<filter_view<…, lambda>>`'s
/// `is_class_v<filter_view<…>>`, `__box<lambda>`'s `copyable<lambda>`)
/// although no member of theirs is used; and completing each of them
/// names their own in turn. The class's own come first, then its bases'
/// and its members' in declaration order, each specialization once.
#[salsa::tracked(returns(clone), cycle_result = completion_cycle)]
pub fn completion_var_uses(db: &dyn SourceDatabase, inst: InstId) -> Vec<Entity> {
    var_template::isolated(|| completion_var_uses_of(db, inst))
}

fn completion_var_uses_of(db: &dyn SourceDatabase, inst: InstId) -> Vec<Entity> {
    let mut out = class_constraint_var_uses(db, inst);
    let class = crate::templates::ClassRefT::Inst(inst);
    let bases = crate::templates::inst_bases(db, inst).iter().filter_map(|b| b.class).collect::<Vec<_>>();
    let members = instances::member_classes(db, class).into_iter().map(|(c, _)| c);
    for sub in bases.into_iter().chain(members) {
        let crate::templates::ClassRefT::Inst(i) = sub else { continue };
        if i == inst {
            continue;
        }
        for x in completion_var_uses(db, i) {
            if !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

/// A class whose completion names itself (through a member's or a base's
/// completion) adds nothing more.
fn completion_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _inst: InstId) -> Vec<Entity> {
    Vec::new()
}

/// The variable template specializations that instantiating the
/// `noexcept(expr)` specifier of `inst` evaluates (every one, emitted or
/// not: the caller re-records them in its own evaluation). g++ instantiates
/// the specifier whenever a call selects the function, in unevaluated
/// operands and requires-expressions too (`ranges::swap`'s
/// `noexcept(_S_noexcept<_Tp, _Up>())` reads `is_nothrow_move_constructible_v`).
#[salsa::tracked(returns(clone), cycle_result = noexcept_cycle)]
pub fn noexcept_var_uses(db: &dyn SourceDatabase, inst: FnInstanceId) -> var_template::VarUses {
    var_template::isolated(|| noexcept_var_uses_of(db, inst))
}

fn noexcept_var_uses_of(db: &dyn SourceDatabase, inst: FnInstanceId) -> var_template::VarUses {
    let decl = inst.decl(db);
    let Some(e) = decl.data(db).and_then(|d| d.noexcept_expr.clone()) else { return None };
    let Ok(env) = instances::instance_env(db, inst) else { return None };
    let Some(scope) = instances::fn_scope(db, decl) else { return None };
    let map = def_map(db, decl.tu(db));
    let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    var_template::recording(|| constraints::truth(cx, &e)).1
}

/// A specifier whose evaluation needs itself instantiates nothing more.
fn noexcept_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _inst: FnInstanceId) -> var_template::VarUses {
    None
}

/// The emitted variable template specializations checking `constraints`
/// in `cx` instantiates.
fn emitted(db: &dyn SourceDatabase, cx: LowerCx<'_>, constraints: &[ConstExpr]) -> Vec<Entity> {
    let ((), uses) = var_template::recording(|| {
        for c in constraints {
            if lazy_truth(cx, c, 0) == Some(false) {
                break;
            }
        }
    });
    emitted_uses(db, &uses)
}

/// Of the variable template specializations an evaluation instantiated,
/// those g++ emits (see the module comment).
pub(crate) fn emitted_uses(db: &dyn SourceDatabase, uses: &var_template::VarUses) -> Vec<Entity> {
    var_template::uses_of(uses)
        .iter()
        .filter(|(vt, args)| {
            !constraints::is_concept(db, *vt)
                && (internal_linkage(db, *vt) || args.iter().any(|a| arg_names_local_closure(db, a, 0)))
        })
        .map(|(vt, args)| {
            Entity::VarInst(instances::var_instance(db, instances::VarDecl::Template(*vt), None, args.clone()))
        })
        .collect()
}

/// Whether a variable template has internal linkage: declared at namespace
/// scope `constexpr` (or `const`, or `static`) and neither `inline` nor
/// `extern` (thrust's `constexpr bool is_contiguous_iterator_v`). g++
/// emits each of its specializations as a local constant wherever it is
/// instantiated, used in a constant expression only or not (g++ 12 `nm`:
/// `r v<int>` for `static_assert(v<int>)`); an `inline` one is not.
fn internal_linkage(db: &dyn SourceDatabase, vt: crate::VarTemplateId) -> bool {
    let tree = item_tree_of(db, vt.item(db));
    let Some(d) = tree.var_templates.get(vt.idx(db) as usize) else { return false };
    let l = d.var.linkage;
    if d.concept || l.is_inline || l.is_extern || !(l.is_constexpr || l.is_static || d.var.is_const) {
        return false;
    }
    let map = def_map(db, vt.item(db).tu(db));
    let parent = map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
    matches!(map.scope(parent).kind, ScopeKind::Root | ScopeKind::Namespace { .. })
}

/// The truth of a constraint, operands of `&&` and `||` evaluated in order
/// and only as far as needed.
fn lazy_truth(cx: LowerCx<'_>, e: &ConstExpr, depth: u32) -> Option<bool> {
    if depth > 64 {
        return None;
    }
    match e {
        ConstExpr::Binary(BinOp::And, l, r) => match lazy_truth(cx, l, depth + 1) {
            Some(false) => Some(false),
            a => match (a, lazy_truth(cx, r, depth + 1)) {
                (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
        },
        ConstExpr::Binary(BinOp::Or, l, r) => match lazy_truth(cx, l, depth + 1) {
            Some(true) => Some(true),
            a => match (a, lazy_truth(cx, r, depth + 1)) {
                (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        },
        ConstExpr::Path(p) => match concept_definition(cx, p) {
            // A concept-id's normal form is its definition's: checked
            // operand by operand, in the concept's own environment.
            Some((env, vt)) => {
                let db = cx.db;
                let tree = item_tree_of(db, vt.item(db));
                let Some(init) = tree.var_templates.get(vt.idx(db) as usize).and_then(|d| d.var.init.as_ref()) else {
                    return None;
                };
                let scope = cx.map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
                let inner = LowerCx { db, map: cx.map, item: vt.item(db), scope, env: Some(&env) };
                lazy_truth(inner, init, depth + 1)
            }
            None => constraints::truth(cx, e),
        },
        e => constraints::truth(cx, e),
    }
}

/// The environment of a concept-id `C<args…>` (its parameters bound to the
/// arguments lowered in `cx`) and the concept; `None` when `p` names no
/// concept or an argument is dependent or a pack.
fn concept_definition(cx: LowerCx<'_>, p: &Path) -> Option<(Env, crate::VarTemplateId)> {
    let db = cx.db;
    let written = p.segments.last()?.args.clone()?;
    let mut bare = p.clone();
    bare.segments.last_mut()?.args = None;
    let vt = match scopes::resolve_path(db, cx.map, cx.scope, &bare, Ns::Value) {
        Some(Def::VarTemplate(vt)) if constraints::is_concept(db, vt) => vt,
        _ => return None,
    };
    let args = var_template::var_template_args(cx, vt, &written).ok()?;
    if args.iter().any(|a| var_template::dependent(db, a)) {
        return None;
    }
    let tree = item_tree_of(db, vt.item(db));
    let data = tree.var_templates.get(vt.idx(db) as usize)?;
    if data.tparams.iter().any(|t| t.pack) || data.tparams.len() != args.len() {
        return None;
    }
    let mut env = Env::default();
    for (t, a) in data.tparams.iter().zip(args) {
        env.names.push((t.name.clone()?, a));
    }
    Some((env, vt))
}

/// Whether a template argument names (at any depth) the closure type of a
/// lambda in a function that is neither inline nor a template.
pub(crate) fn arg_names_local_closure(db: &dyn SourceDatabase, a: &TemplateArg, depth: u32) -> bool {
    match a {
        TemplateArg::Type(t) => ty_names_local_closure(db, *t, depth),
        TemplateArg::Pack(v) => v.iter().any(|x| arg_names_local_closure(db, x, depth + 1)),
        _ => false,
    }
}

fn ty_names_local_closure(db: &dyn SourceDatabase, t: TyId, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    let d = depth + 1;
    match t.kind(db) {
        TyKind::Closure(c) => closure_has_no_linkage(db, *c, 0),
        TyKind::Ptr(x)
        | TyKind::LRef(x)
        | TyKind::RRef(x)
        | TyKind::Qualified(x, _)
        | TyKind::Array(x, _)
        | TyKind::Complex(x)
        | TyKind::Vector(x, _) => ty_names_local_closure(db, *x, d),
        TyKind::MemPtr { class, pointee } => {
            ty_names_local_closure(db, *class, d) || ty_names_local_closure(db, *pointee, d)
        }
        TyKind::Func(f) => {
            ty_names_local_closure(db, f.ret, d) || f.params.iter().any(|p| ty_names_local_closure(db, *p, d))
        }
        TyKind::App(a) => a.args(db).iter().any(|x| arg_names_local_closure(db, x, d)),
        TyKind::Inst(i) => i.args(db).iter().any(|x| arg_names_local_closure(db, x, d)),
        TyKind::Typedef(_) => {
            let c = canonical(db, t);
            c != t && ty_names_local_closure(db, c, d)
        }
        _ => false,
    }
}

/// A lambda of a non-inline, non-template function (or of a lambda in
/// one): its closure type has no linkage in g++'s sense.
fn closure_has_no_linkage(db: &dyn SourceDatabase, c: ClosureId, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    match c.owner(db) {
        InferOwner::Fn(f) => item_tree_of(db, f.item(db))
            .fns
            .get(f.idx(db) as usize)
            .is_some_and(|d| !(d.linkage.is_inline || d.linkage.is_constexpr || (d.in_class && d.qualifier.is_none()))),
        InferOwner::Inst(_) | InferOwner::VarInst(_) => false,
        // A closure in a non-inline variable's initializer.
        InferOwner::Var(v) => {
            item_tree_of(db, v.item(db)).vars.get(v.idx(db) as usize).is_some_and(|d| !d.linkage.is_inline)
        }
        InferOwner::Closure(cf) => closure_has_no_linkage(db, cf.closure(db), depth + 1),
    }
}
