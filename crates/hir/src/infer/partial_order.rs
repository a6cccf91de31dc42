//! Partial ordering of function templates ([temp.func.order],
//! [temp.deduct.partial]): among candidates whose conversions tie, the
//! more specialized template wins. libstdc++ leans on it everywhere:
//! `__uninitialized_default_n_a(_FwdIt, _Size, allocator<_Tp>&)` over
//! `(_FwdIt, _Size, _Allocator&)`, `_Destroy(_FwdIt, _FwdIt, allocator<_Tp>&)`
//! over `(…, _Allocator&)`.
//!
//! The model: for `f` against `g`, `f`'s parameter types are lowered with
//! each of its template parameters replaced by a unique synthesized type
//! (a template parameter at a depth nothing deduces), `g`'s with its
//! parameters as the placeholders `deduce` uses; `f` is at least as
//! specialized as `g` when `g`'s parameters deduce from `f`'s types, P and
//! A both with references and top-level cv removed ([temp.deduct.partial]/5–7).
//! Only the parameters the call has arguments for take part (/3).
//! Function parameter packs are not ordered (no winner: the caller keeps
//! its own choice).

use super::*;

/// The depth of synthesized unique types: no template has this many levels,
/// so `match_ty` at depth 1 treats them as ordinary, distinct types.
const SYNTH_DEPTH: u32 = 1000;

/// The candidate that wins by partial ordering among the templates tied
/// with `best` on every conversion (all ranks but the last, the crude
/// generality tie-break). A non-template `best` is kept ([over.match.best]/2.4).
pub(super) fn prefer_more_specialized(
    inf: &Infer<'_>,
    viable: &[(Cand, Vec<TemplateArg>, FnSig, Vec<Rank>)],
    best: usize,
    nargs: usize,
) -> usize {
    let is_template = |i: usize| matches!(viable[i].0.0, FnDecl::Template(_));
    if !is_template(best) {
        return best;
    }
    let tied: Vec<usize> =
        (0..viable.len()).filter(|&i| is_template(i) && same_conversions(&viable[i].3, &viable[best].3, 1)).collect();
    if tied.len() < 2 || tied.len() > 8 {
        return best;
    }
    let at_least = |f: usize, g: usize| at_least_as_specialized(inf, viable[f].0, viable[g].0, nargs);
    for &t in &tied {
        if tied.iter().all(|&u| u == t || (at_least(t, u) == Some(true) && at_least(u, t) == Some(false))) {
            return t;
        }
    }
    best
}

/// Whether `f` is at least as specialized as `g` for a call with `nargs`
/// arguments (None: not ordered, e.g. a function parameter pack).
pub(super) fn at_least_as_specialized(inf: &Infer<'_>, f: Cand, g: Cand, nargs: usize) -> Option<bool> {
    let db = inf.db;
    let fd = f.0.data(db)?;
    let gd = g.0.data(db)?;
    if !fd.pack_params.is_empty() || !gd.pack_params.is_empty() {
        return None;
    }
    let n = nargs.min(fd.ty.params.len()).min(gd.ty.params.len());
    let fparams = f.0.tparams(db);
    let gparams = g.0.tparams(db);
    if fparams.iter().chain(&gparams).any(|p| p.pack) {
        return None;
    }
    let synth = |p: &TemplateParam, i: u32| match p.kind {
        TemplateParamKind::Type => TemplateArg::Type(mk(db, TyKind::TemplateParam { depth: SYNTH_DEPTH, index: i })),
        TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: SYNTH_DEPTH, index: i },
        TemplateParamKind::Template => TemplateArg::Template(TemplateRef::Param { depth: SYNTH_DEPTH, index: i }),
    };
    let ftys = param_types(inf, f, &fd, &fparams, n, &synth)?;
    let gtys = param_types(inf, g, &gd, &gparams, n, &|p, i| placeholder(db, p, i))?;
    let adjust = |t: TyId| {
        let c = canonical(db, t);
        let c = match c.kind(db) {
            TyKind::LRef(x) | TyKind::RRef(x) => canonical(db, *x),
            _ => c,
        };
        strip_cv(db, c)
    };
    let mut out: Vec<Option<TemplateArg>> = vec![None; gparams.len()];
    for (p, a) in gtys.iter().zip(&ftys) {
        let (p, a) = (adjust(*p), adjust(*a));
        if matches!(a.kind(db), TyKind::Error(_)) || matches!(p.kind(db), TyKind::Error(_)) {
            return None;
        }
        if !templates::match_ty(db, p, a, 1, &mut out) {
            return Some(false);
        }
    }
    Some(true)
}

/// The first `n` parameter types of `c`, its template parameters bound by `bind`.
fn param_types(
    inf: &Infer<'_>,
    c: Cand,
    data: &crate::item_tree::FnData,
    params: &[TemplateParam],
    n: usize,
    bind: &dyn Fn(&TemplateParam, u32) -> TemplateArg,
) -> Option<Vec<TyId>> {
    let db = inf.db;
    let scope = instances::fn_scope(db, c.0)?;
    let mut env = match c.1 {
        Some(o) => templates::inst_env(db, o).ok()?,
        None => Env::default(),
    };
    for (i, p) in params.iter().enumerate() {
        if let Some(nm) = &p.name {
            env.names.push((nm.clone(), bind(p, i as u32)));
        }
    }
    let cx = LowerCx { db, map: inf.map, item: c.0.item(db), scope, env: Some(&env) };
    data.ty.params.iter().take(n).map(|r| templates::nested(|| Ok(ty::lower(cx, r))).ok()).collect()
}
