//! The alternatives [temp.deduct.call]/4 allows when `P` and the transformed
//! `A` do not match exactly: a more cv-qualified pointer (`const T*` from
//! `int*`, at any depth of pointers) and, for a pointer to a template-id, a
//! pointer to a derived class (`B<T>*` from `D*`). CUB's and thrust's
//! helpers (`fetch(const T*)`, `SortKeys(const KeyT*, KeyT*, …)`) need the
//! first. Also the one deduced context a lowered type cannot hold: an array
//! bound naming a value parameter (`void* (&)[N]`, CUB's
//! `AliasTemporaries`), read from the parameter as written.

use cufront_base_db::SourceDatabase;

use crate::item_tree::{ConstExpr, Cv, TemplateParam, TemplateParamKind, TypeRef};
use crate::templates::{self, TemplateArg};
use crate::ty::{TyId, TyKind, canonical, mk};

/// Deduces `p` (a pointer type pattern) from `a` through a qualification
/// conversion or a derived-to-base pointer conversion; `out` is updated only
/// on success.
pub(super) fn deduce_pointer_conversion(
    db: &dyn SourceDatabase,
    p: TyId,
    a: TyId,
    out: &mut [Option<TemplateArg>],
) -> bool {
    if !matches!(p.kind(db), TyKind::Ptr(_)) || !matches!(a.kind(db), TyKind::Ptr(_)) {
        return false;
    }
    if let Some(q) = qualified_like(db, p, a, 0) {
        let mut scratch = out.to_vec();
        if templates::match_ty(db, p, q, 1, &mut scratch) {
            out.clone_from_slice(&scratch);
            return true;
        }
    }
    // `B<T>*` (cv) from `D*`: the bases of `D`, nearest first.
    let (TyKind::Ptr(pp), TyKind::Ptr(ap)) = (p.kind(db), a.kind(db)) else { return false };
    let (pcv, pinner) = split_cv(db, *pp);
    let (acv, ainner) = split_cv(db, *ap);
    if !matches!(pinner.kind(db), TyKind::App(_)) || !acv.subset_of(pcv) {
        return false;
    }
    let mut queue = std::collections::VecDeque::from([ainner]);
    let mut seen = 0;
    while let Some(cur) = queue.pop_front() {
        seen += 1;
        if seen > 64 {
            break;
        }
        let Ok(c) = templates::class_of(db, cur) else { continue };
        for b in templates::class_bases_of(db, c).iter() {
            let Some(bt) = b.ty else { continue };
            let bt = canonical(db, bt);
            let mut scratch = out.to_vec();
            if templates::match_ty(db, pinner, bt, 1, &mut scratch) {
                out.clone_from_slice(&scratch);
                return true;
            }
            queue.push_back(bt);
        }
    }
    false
}

/// `a` with the cv-qualifiers `p` adds at each pointer level (none of `a`'s
/// dropped): the type a qualification conversion would give, or None when
/// `a` has a qualifier `p` lacks, or the shapes differ.
fn qualified_like(db: &dyn SourceDatabase, p: TyId, a: TyId, depth: u32) -> Option<TyId> {
    if depth > 16 {
        return None;
    }
    let (TyKind::Ptr(pp), TyKind::Ptr(ap)) = (p.kind(db), a.kind(db)) else { return Some(a) };
    let (pcv, pinner) = split_cv(db, *pp);
    let (acv, ainner) = split_cv(db, *ap);
    if !acv.subset_of(pcv) {
        return None;
    }
    let inner = qualified_like(db, pinner, ainner, depth + 1)?;
    let inner = if pcv.is_empty() { inner } else { mk(db, TyKind::Qualified(inner, pcv)) };
    Some(mk(db, TyKind::Ptr(inner)))
}

fn split_cv(db: &dyn SourceDatabase, t: TyId) -> (Cv, TyId) {
    let t = canonical(db, t);
    match t.kind(db) {
        TyKind::Qualified(x, cv) => (*cv, *x),
        _ => (Cv::default(), t),
    }
}

trait CvExt {
    fn subset_of(self, other: Cv) -> bool;
}

impl CvExt for Cv {
    fn subset_of(self, o: Cv) -> bool {
        (!self.c || o.c) && (!self.v || o.v) && (!self.r || o.r)
    }
}

/// Binds the value parameters that the array bounds of parameter type `p`
/// (as written) name, from the bounds of argument type `a` (`T (&)[N]` from
/// `int[4]` gives `N = 4`); returns the names bound, with their values, for
/// the caller to lower `p` again with them.
pub(super) fn deduce_array_bounds(
    cx: crate::ty::LowerCx<'_>,
    p: &TypeRef,
    a: TyId,
    params: &[TemplateParam],
    out: &mut [Option<TemplateArg>],
) -> Vec<(String, TemplateArg)> {
    let mut bound = Vec::new();
    // `T x[N]` is `T *x`: its bound is no deduced context.
    if !matches!(p, TypeRef::Array(..)) {
        walk(cx, p, a, params, out, &mut bound, 0);
    }
    bound
}

fn walk(
    cx: crate::ty::LowerCx<'_>,
    p: &TypeRef,
    a: TyId,
    params: &[TemplateParam],
    out: &mut [Option<TemplateArg>],
    bound: &mut Vec<(String, TemplateArg)>,
    depth: u32,
) {
    let db = cx.db;
    if depth > 16 {
        return;
    }
    let a = canonical(db, a);
    match (p, a.kind(db)) {
        (TypeRef::LRef(x) | TypeRef::RRef(x), TyKind::LRef(y) | TyKind::RRef(y)) => {
            walk(cx, x, *y, params, out, bound, depth + 1)
        }
        // A reference parameter binds the argument itself.
        (TypeRef::LRef(x) | TypeRef::RRef(x), _) => walk(cx, x, a, params, out, bound, depth + 1),
        (TypeRef::Cv(x, _), TyKind::Qualified(y, _)) => walk(cx, x, *y, params, out, bound, depth + 1),
        (TypeRef::Cv(x, _), _) => walk(cx, x, a, params, out, bound, depth + 1),
        (TypeRef::Ptr(x), TyKind::Ptr(y)) => walk(cx, x, *y, params, out, bound, depth + 1),
        (TypeRef::Array(x, b), TyKind::Array(y, n)) => {
            if let (Some(ConstExpr::Path(path)), Some(n)) = (b.as_deref(), n)
                && let ([seg], false) = (path.segments.as_slice(), path.global)
            {
                let slot = params.iter().position(|q| q.name.as_deref() == Some(seg.name.as_str()) && !q.pack);
                if let Some(i) = slot
                    && let (TemplateParamKind::Value(t), None) = (&params[i].kind, &out[i])
                {
                    let vt = canonical(db, crate::ty::lower(cx, t));
                    let v = TemplateArg::Value(*n as i128, vt);
                    out[i] = Some(v.clone());
                    bound.push((seg.name.clone(), v));
                }
            }
            // The element keeps its cv on the array (`const T (&)[N]`).
            let (_, y) = split_cv(db, *y);
            walk(cx, x, y, params, out, bound, depth + 1);
        }
        (TypeRef::Array(..), TyKind::Qualified(y, _)) => walk(cx, p, *y, params, out, bound, depth + 1),
        _ => {}
    }
}

/// A reference parameter to an array of cv-qualified elements (`const T
/// (&)[N]`) binds an array of less qualified ones ([temp.deduct.call]/4.1):
/// deduces with the parameter's element cv added to the argument's.
pub(super) fn deduce_more_qualified_array(
    db: &dyn SourceDatabase,
    target: TyId,
    at: TyId,
    out: &mut [Option<TemplateArg>],
) -> bool {
    let pe = match target.kind(db) {
        TyKind::Array(pe, _) | TyKind::ParamArray { elem: pe, .. } => pe,
        _ => return false,
    };
    let TyKind::Array(ae, m) = at.kind(db) else { return false };
    let (pcv, _) = split_cv(db, *pe);
    let (acv, ainner) = split_cv(db, *ae);
    if pcv.is_empty() || !acv.subset_of(pcv) {
        return false;
    }
    let a2 = mk(db, TyKind::Array(mk(db, TyKind::Qualified(ainner, pcv)), *m));
    let mut scratch = out.to_vec();
    if templates::match_ty(db, target, a2, 1, &mut scratch) {
        out.clone_from_slice(&scratch);
        return true;
    }
    false
}
