//! The calls EDG folds to their value: a call of a `constexpr` function
//! (a constructor included) that is a constant expression is replaced by
//! its value wherever it appears (`int v = sq(5);`, `cube(2) + argc`,
//! `k<<<1, n / 2>>>`'s `dim3` conversions, in host and device bodies
//! alike), so the function is not referenced there: cicc keeps neither it
//! nor what it calls on that call's account (spec 40 §4.3, checked against
//! cicc's device listing). g++ is not asked: the host closure
//! (`instances::required_entities`) does not read this.
//!
//! A site is folded when one of its calls is of a `constexpr` function and
//! the constant interpreter evaluates the site's expression (a local's
//! initialization for a declaration) to a value, with the body's constant
//! locals known ([expr.const]/4, as `infer` binds them); a range-based
//! `for`'s range is no such site (its calls are on the range variable). What the
//! interpreter does not model is not folded: the function stays referenced.

use super::*;
use crate::consteval::interp::{self, CValue};

/// The calls of `owner`'s body that EDG folds: each `constexpr` callee at
/// a folded site, in the order of `infer(owner).calls` (a destructor at a
/// folded declaration is still called). A closure's body is read in the
/// enclosing body's frame (`owner_info`), where its captures are not
/// constants: `k<<<1, 32>>>` in a lambda folds, `k<<<n, 32>>>` does not.
#[salsa::tracked(returns(clone))]
pub fn folded_calls(db: &dyn SourceDatabase, owner: InferOwner) -> Arc<Vec<(CallSite, Entity)>> {
    let r = infer(db, owner);
    let Ok(info) = owner_info(db, owner) else { return Arc::default() };
    let map = def_map(db, info.item.tu(db));
    let body = &info.body;
    let env = interp::body_env(db, &map, (info.item, info.scope, info.env.as_ref()), body);
    let site = (info.item, info.scope, env.as_ref());
    let mut known: Option<Vec<(LocalId, CValue)>> = None;
    let mut folded: FxHashMap<CallSite, bool> = FxHashMap::default();
    // A range-based `for` calls `begin()` and `end()` at its range
    // expression, on the range variable: no constant, whatever the range's
    // value (`for (int n : {1, 2, 3})`).
    for s in &body.stmts {
        if let Stmt::RangeFor { range, .. } = s {
            folded.insert(CallSite::Expr(*range), false);
        }
    }
    let manifest = manifestly_constant(body);
    let within =
        |x: ExprId| body.expr_ranges.get(x.0 as usize).is_some_and(|r| manifest.iter().any(|m| m.contains_range(*r)));
    let mut out = Vec::new();
    for (s, callee) in &r.calls {
        let Callee::Entity(e) = callee else { continue };
        if !is_constexpr_fn(db, *e) {
            continue;
        }
        let is_folded = *folded.entry(*s).or_insert_with(|| {
            // A constant expression by the program's own rules: folded
            // whether or not the interpreter models the call.
            match *s {
                CallSite::Expr(x) if within(x) => return true,
                CallSite::Local(l) if body.locals.get(l.0 as usize).is_some_and(|l| l.is_constexpr) => return true,
                _ => {}
            }
            let known = known.get_or_insert_with(|| constant_locals(db, &map, site, body, &r));
            let value = match *s {
                CallSite::Expr(x) => interp::eval_body_expr(db, &map, site, body, known, x),
                CallSite::Local(l) => interp::eval_local_init(db, &map, site, body, known, l),
                CallSite::MemInit(_) | CallSite::Owner => return false,
            };
            value.is_ok_and(|v| !matches!(v, CValue::Uninit))
        });
        if is_folded {
            out.push((*s, *e));
        }
    }
    Arc::new(out)
}

/// Where the body's manifestly constant-evaluated expressions are
/// ([expr.const]/20): the conditions of `if constexpr` and the
/// initializers of `constexpr` locals (`constexpr auto length =
/// static_size_v<Input>();`, `if constexpr (is_one_of<Op, …>())`). EDG
/// evaluates them, so the calls there are folded, as cicc's listing shows.
fn manifestly_constant(body: &Body) -> Vec<cufront_syntax::TextRange> {
    let range = |x: &ExprId| body.expr_ranges.get(x.0 as usize).copied();
    let mut out = Vec::new();
    for s in &body.stmts {
        if let Stmt::If { cond: Cond::Expr(c), constexpr: true, .. } = s {
            out.extend(range(c));
        }
    }
    for l in body.locals.iter().filter(|l| l.is_constexpr) {
        match &l.init {
            Init::None => {}
            Init::Assign(x) => out.extend(range(x)),
            Init::Paren(xs) | Init::Brace(xs) => out.extend(xs.iter().filter_map(range)),
        }
    }
    out
}

/// Whether `e` is a function declared `constexpr` (or `consteval`).
fn is_constexpr_fn(db: &dyn SourceDatabase, e: Entity) -> bool {
    match e {
        Entity::Fn(f) => crate::exec_space::fn_is_constexpr(db, FnDecl::Fn(f)),
        Entity::FnInst(i) => crate::exec_space::fn_is_constexpr(db, i.decl(db)),
        _ => false,
    }
}

/// The body's locals usable in constant expressions, with their values
/// (`constexpr`, or `const` integral or enumeration with a constant
/// initializer: what `const_locals` binds during inference), in
/// declaration order, each evaluated with those before it known.
fn constant_locals(
    db: &dyn SourceDatabase,
    map: &DefMap,
    site: (ItemId, ScopeIdx, Option<&Env>),
    body: &Body,
    r: &InferenceResult,
) -> Vec<(LocalId, CValue)> {
    let mut out: Vec<(LocalId, CValue)> = Vec::new();
    for (i, loc) in body.locals.iter().enumerate() {
        if matches!(loc.init, Init::None) || loc.pack || loc.binding_of.is_some() || loc.name.is_none() {
            continue;
        }
        let Some(t) = r.local_tys.get(i).copied().flatten() else { continue };
        let c = canonical(db, t);
        let (base, cv) = match c.kind(db) {
            TyKind::Qualified(b, cv) => (canonical(db, *b), *cv),
            _ => (c, Cv::default()),
        };
        let scalar = match base.kind(db) {
            TyKind::Builtin(b) => is_int(*b),
            TyKind::Enum(_) => true,
            _ => false,
        };
        if !(loc.is_constexpr || (cv.c && scalar)) {
            continue;
        }
        let l = LocalId(i as u32);
        if let Ok(v) = interp::eval_local_init(db, map, site, body, &out, l) {
            out.push((l, v));
        }
    }
    out
}
