//! The type of a variable (template specialization) declared `auto`
//! ([dcl.type.auto.deduct]): deduced from its initializer as from a
//! by-value argument — references and top-level cv dropped — then `const`
//! again when declared `constexpr`. CUB's `detail::bool_constant_v<V>`
//! (`inline constexpr auto bool_constant_v = bool_constant<V>{};`) picks
//! `InvokeManyTiles(true_type)` over `(false_type)` by it.

use cufront_base_db::SourceDatabase;

use crate::item_tree::{ConstExpr, Cv, TypeRef, VarData};
use crate::ty::{self, LowerCx, TyId, TyKind, canonical, mk};

/// The deduced type, `None` when `data` is not declared plain `auto` or
/// the initializer is not of a modelled shape.
pub(super) fn deduced_auto_type(db: &dyn SourceDatabase, cx: LowerCx<'_>, data: &VarData) -> Option<TyId> {
    if !matches!(&data.ty, TypeRef::Opaque(s) if s == "auto") {
        return None;
    }
    let t = match data.init.as_ref()? {
        // `T(x)`, `T{x}`, `static_cast<T>(x)`: a prvalue of `T`.
        ConstExpr::Cast(t, _) => ty::lower(cx, t),
        ConstExpr::Unsupported(text) if !text.trim().is_empty() => {
            crate::infer::decltype_text(cx, &format!("decltype({text})"))?
        }
        _ => return None,
    };
    let mut t = canonical(db, t);
    if let TyKind::LRef(x) | TyKind::RRef(x) = t.kind(db) {
        t = canonical(db, *x);
    }
    let t = crate::infer::strip_cv(db, t);
    if matches!(t.kind(db), TyKind::Error(_)) {
        return None;
    }
    Some(if data.linkage.is_constexpr { mk(db, TyKind::Qualified(t, Cv { c: true, v: false, r: false })) } else { t })
}

/// The type of a variable outside templates as lowered in `cx` (its
/// scope): as declared, `auto` deduced from its initializer.
pub fn var_decl_type(db: &dyn SourceDatabase, cx: LowerCx<'_>, data: &VarData) -> TyId {
    deduced_auto_type(db, cx, data).unwrap_or_else(|| ty::lower(cx, &data.ty))
}
