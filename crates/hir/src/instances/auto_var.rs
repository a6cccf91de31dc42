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
        // A literal has its type; `sizeof`/`alignof` are `size_t`.
        ConstExpr::Int(_, b) => mk(db, TyKind::Builtin(*b)),
        ConstExpr::SizeofType(_) | ConstExpr::AlignofType(_) | ConstExpr::SizeofPack(_) => {
            mk(db, TyKind::Builtin(crate::item_tree::Builtin::ULong))
        }
        // A name (`constexpr auto a = sizeof_bits_v<T>;`): its declared
        // type, through the one `decltype` reader, where the path prints
        // as written.
        ConstExpr::Path(p) if prints_as_written(p) => crate::infer::decltype_text(cx, &format!("decltype({p})"))?,
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

/// Whether a path's `Display` is C++ that reads back as the same path: its
/// template arguments are names, builtin types and integers only.
fn prints_as_written(p: &crate::item_tree::Path) -> bool {
    use crate::item_tree::TemplateArgRef as A;
    p.segments.iter().all(|s| {
        s.args.as_ref().is_none_or(|args| {
            args.iter().all(|a| match a {
                A::Type(TypeRef::Path(q)) | A::Expr(ConstExpr::Path(q)) => prints_as_written(q),
                A::Type(TypeRef::Builtin(_)) | A::Expr(ConstExpr::Int(..)) => true,
                _ => false,
            })
        })
    })
}
