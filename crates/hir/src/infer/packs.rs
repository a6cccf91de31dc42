//! Template parameter packs in function template argument deduction
//! ([temp.deduct.call], [temp.deduct.type]): while a candidate's parameter
//! types are lowered for deduction, a pack parameter `Ts` is bound to the
//! pack marker `templates` deduces class patterns with
//! (`Pack([Dependent("pack:i")])`), so that `X<Ts...>` deduces the whole
//! pack from `X<int, char>`; a function parameter pack (`Ts&&... xs`) is
//! lowered with `Ts` bound to its single placeholder and deduced once per
//! argument.

use cufront_base_db::SourceDatabase;

use crate::item_tree::TemplateParam;
use crate::templates::{Env, TemplateArg};

/// The deduction marker of pack parameter `i` (see `templates::deduce`).
pub(super) fn pack_placeholder(i: u32) -> TemplateArg {
    TemplateArg::Pack(vec![TemplateArg::Dependent(format!("pack:{i}"))])
}

/// `env` with every pack parameter rebound to its single placeholder.
pub(super) fn element_env(db: &dyn SourceDatabase, env: &Env, params: &[TemplateParam]) -> Env {
    let mut e = env.clone();
    for (i, p) in params.iter().enumerate() {
        if let (true, Some(n)) = (p.pack, &p.name) {
            e.names.push((n.clone(), super::placeholder(db, p, i as u32)));
        }
    }
    e
}

/// Deduces a trailing function parameter pack (written `pref`, lowered to
/// `pt` with its packs bound to their element placeholders) from every
/// argument left: for each template parameter pack the pattern expands
/// (`L<Ss, Ds> const&...` expands two), its index and its element deduced
/// from each argument (`None` where the argument does not deduce it).
/// `None` overall when an argument does not match the pattern. Each
/// argument is deduced on its own against what is deduced so far (`out`),
/// the packs' slots cleared ([temp.deduct.call]/1: every pack of the
/// pattern gets one element per argument).
pub(super) fn deduce_param_pack(
    db: &dyn SourceDatabase,
    pt: crate::ty::TyId,
    pref: &crate::item_tree::TypeRef,
    tparams: &[TemplateParam],
    args: &[super::Arg],
    out: &[Option<TemplateArg>],
) -> Option<Vec<(usize, Vec<Option<TemplateArg>>)>> {
    let mut names = Vec::new();
    crate::instances::typeref_names(pref, &mut names);
    let slots: Vec<usize> = tparams
        .iter()
        .enumerate()
        .filter(|(_, p)| p.pack && p.name.as_ref().is_some_and(|n| names.contains(n)))
        .map(|(i, _)| i)
        .collect();
    let mut packs: Vec<(usize, Vec<Option<TemplateArg>>)> =
        slots.iter().map(|&s| (s, Vec::with_capacity(args.len()))).collect();
    for &a in args {
        let mut scratch = out.to_vec();
        for &s in &slots {
            scratch[s] = None;
        }
        if !super::deduce_one(db, pt, a, &mut scratch) {
            return None;
        }
        for (s, elems) in &mut packs {
            elems.push(scratch[*s].take());
        }
    }
    Some(packs)
}

/// The names a written template argument mentions (`get<I>`, `X<Ts*>`),
/// where a pack expansion's pattern looks for the packs it expands.
pub(super) fn template_arg_names(a: &crate::item_tree::TemplateArgRef, out: &mut Vec<String>) {
    use crate::item_tree::TemplateArgRef;
    match a {
        TemplateArgRef::Type(t) => crate::instances::typeref_names(t, out),
        TemplateArgRef::Expr(e) => crate::instances::const_expr_names(e, out, 0),
        // An inner expansion expands its own packs.
        TemplateArgRef::Expansion(_) => {}
    }
}

/// Whether pack parameter `p` appears in a function parameter that is not
/// itself a pack (`X<Ts*...>`): left undeduced there, it is not empty but
/// unknown (a pattern deduction the model does not do), so the candidate
/// fails rather than naming a wrong specialization.
pub(crate) fn in_deduced_context(p: &TemplateParam, data: &crate::item_tree::FnData) -> bool {
    let Some(name) = &p.name else { return false };
    data.ty.params.iter().enumerate().any(|(k, t)| {
        if data.pack_params.contains(&(k as u32)) {
            return false;
        }
        let mut names = Vec::new();
        crate::instances::typeref_names(t, &mut names);
        names.contains(name)
    })
}

/// Explicit value arguments converted to their parameter's type as the
/// template declares it (`get<0>` for `size_t I` is `0ul`: the caller's
/// scope may not even see the type's name).
pub(super) fn convert_explicit_values(
    cx: crate::ty::LowerCx<'_>,
    params: &[TemplateParam],
    out: &mut [Option<TemplateArg>],
) {
    use crate::item_tree::TemplateParamKind;
    use crate::ty::{TyKind, canonical};
    let db = cx.db;
    for (p, slot) in params.iter().zip(out.iter_mut()) {
        let TemplateParamKind::Value(t) = &p.kind else { continue };
        let convert = |a: &mut TemplateArg| {
            if let TemplateArg::Value(v, ty) = a {
                let pt = canonical(db, crate::ty::lower(cx, t));
                if matches!(pt.kind(db), TyKind::Builtin(_) | TyKind::Enum(_)) && pt != *ty {
                    *v = crate::consteval::convert(*v, crate::templates::value_builtin(db, pt));
                    *ty = pt;
                }
            }
        };
        match slot {
            Some(TemplateArg::Pack(elems)) if p.pack => elems.iter_mut().for_each(convert),
            Some(a) if !p.pack => convert(a),
            _ => {}
        }
    }
}

/// An explicit template argument: as written, or an element of an expansion.
pub(crate) enum Written<'a> {
    Ref(&'a crate::item_tree::TemplateArgRef),
    Done(TemplateArg),
}

/// Explicit template arguments with their pack expansions (`Ts...`)
/// expanded over the packs of the environment.
pub(crate) fn expand_written<'a>(
    cx: crate::ty::LowerCx<'_>,
    written: &'a [crate::item_tree::TemplateArgRef],
) -> Result<Vec<Written<'a>>, crate::SemaError> {
    let mut out = Vec::new();
    for w in written {
        match w {
            crate::item_tree::TemplateArgRef::Expansion(x) => {
                out.extend(crate::templates::expand(cx, x)?.into_iter().map(Written::Done));
            }
            w => out.push(Written::Ref(w)),
        }
    }
    Ok(out)
}
