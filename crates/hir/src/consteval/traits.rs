//! Type trait builtins (`__is_base_of(B, D)`, …) beyond what
//! `templates::type_trait` answers from layout: class relations and
//! approximations of the special-member traits from what the item tree
//! knows (user-declared constructors, assignment, destructor).

use cufront_base_db::SourceDatabase;

use crate::item_tree::Builtin;
use crate::templates::{self, ClassRefT};
use crate::ty::{self, TyId, TyKind};

/// Evaluates the trait `name` (without underscores) on `tys`.
pub fn eval_trait(db: &dyn SourceDatabase, name: &str, tys: &[TyId]) -> Result<bool, String> {
    match templates::type_trait(db, name, tys) {
        Ok(b) => return Ok(b),
        Err(e) if !e.contains("not evaluated") => return Err(e),
        Err(_) => {}
    }
    let t0 = *tys.first().ok_or("trait without a type")?;
    let c0 = strip(db, t0);
    let class = |t: TyId| templates::class_of(db, strip(db, t)).ok();
    Ok(match name {
        "is_base_of" => {
            let d = *tys.get(1).ok_or("is_base_of needs two types")?;
            match (class(t0), class(d)) {
                (Some(b), Some(d)) => b == d || derives(db, d, b, 0),
                _ => false,
            }
        }
        "is_abstract" => false,
        "is_aggregate" => match class(t0) {
            Some(c) => {
                let k = c.pattern(db);
                let tree = crate::item_tree_of(db, k.item(db));
                let d = tree.classes.get(k.idx(db) as usize).ok_or("no class")?;
                !d.user_ctor && !d.has_virtual_fn
            }
            None => matches!(c0.kind(db), TyKind::Array(..)),
        },
        "has_virtual_destructor" => false,
        "is_literal_type" => true,
        "is_null_pointer" => matches!(c0.kind(db), TyKind::Builtin(Builtin::NullPtr)),
        "is_trivially_constructible" | "is_trivially_assignable" | "is_nothrow_constructible" | "is_nothrow_assignable"
        | "is_constructible" | "is_assignable" => {
            // Scalars from scalars (references looked through); classes
            // whose special members are all implicit and trivial.
            let scalar = |t: TyId| {
                let t = strip_ref(db, t);
                matches!(t.kind(db), TyKind::Builtin(b) if *b != Builtin::Void) || matches!(t.kind(db), TyKind::Enum(_) | TyKind::Ptr(_))
            };
            let args_scalar = tys[1..].iter().all(|t| scalar(*t));
            let is_ref = matches!(ty::canonical(db, t0).kind(db), TyKind::LRef(_) | TyKind::RRef(_));
            match class(t0) {
                None if scalar(t0) && !is_ref => args_scalar && tys.len() <= 2,
                None => return Err(format!("type trait __{name} on this type not evaluated")),
                Some(c) => {
                    if !trivial_class(db, c) {
                        return Err(format!("type trait __{name} on a class with special members not evaluated"));
                    }
                    let same = tys[1..].iter().all(|t| class(*t) == Some(c));
                    if tys.len() == 1 || same {
                        true
                    } else {
                        return Err(format!("type trait __{name} with other argument types not evaluated"));
                    }
                }
            }
        }
        "has_unique_object_representations" => match c0.kind(db) {
            TyKind::Builtin(b) => !matches!(b, Builtin::Float | Builtin::Double | Builtin::LongDouble | Builtin::Bool),
            _ => return Err(format!("type trait __{name} not evaluated")),
        },
        _ => return Err(format!("type trait __{name} not evaluated")),
    })
}

/// A class whose special members are all implicit and trivial: no user
/// constructor, assignment or destructor, nothing virtual, no default
/// member initializer, no base, only scalar members.
fn trivial_class(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let k = c.pattern(db);
    let tree = crate::item_tree_of(db, k.item(db));
    let Some(d) = tree.classes.get(k.idx(db) as usize) else { return false };
    if d.user_ctor || d.user_copy_assign || d.user_dtor || d.has_virtual_fn || !d.bases.is_empty() || d.fields.iter().any(|f| f.has_init) {
        return false;
    }
    let Ok(l) = crate::layout::layout_ref(db, c) else { return false };
    l.fields.iter().all(|f| {
        let mut t = ty::canonical(db, f.ty);
        while let TyKind::Array(x, _) | TyKind::Qualified(x, _) = t.kind(db) {
            t = ty::canonical(db, *x);
        }
        matches!(t.kind(db), TyKind::Builtin(_) | TyKind::Enum(_) | TyKind::Ptr(_))
    })
}

fn strip_ref(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let t = strip(db, t);
    match t.kind(db) {
        TyKind::LRef(x) | TyKind::RRef(x) => strip(db, *x),
        _ => t,
    }
}

fn strip(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let t = ty::canonical(db, t);
    match t.kind(db) {
        TyKind::Qualified(x, _) => ty::canonical(db, *x),
        _ => t,
    }
}

/// Whether `d` has `b` as a (direct or indirect) base.
pub(crate) fn derives(db: &dyn SourceDatabase, d: ClassRefT, b: ClassRefT, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    templates::class_bases_of(db, d).iter().filter_map(|x| x.class).any(|x| x == b || derives(db, x, b, depth + 1))
}

/// `__underlying_type(E)`, a type the item tree keeps as text: the
/// underlying type of the enum `E` (a path) lowered in `cx`. `None`: not an
/// enum here (a dependent argument, or not read).
pub fn underlying_type_text(cx: ty::LowerCx<'_>, s: &str) -> Option<TyId> {
    let inner = s.strip_prefix("__underlying_type")?.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
    let toks = crate::type_tokens(inner);
    let mut pos = 0;
    let p = crate::read_path(&toks, &mut pos)?;
    if pos != toks.len() {
        return None;
    }
    let t = strip(cx.db, ty::lower(cx, &crate::item_tree::TypeRef::Path(p)));
    match t.kind(cx.db) {
        TyKind::Enum(e) => Some(ty::mk(cx.db, TyKind::Builtin(ty::enum_info(cx.db, *e).underlying))),
        _ => None,
    }
}
