//! `__is_assignable(T, U)` for a class with declared assignment operators:
//! whether `declval<T>() = declval<U>()` is well-formed ([meta.unary.prop]),
//! decided by overload resolution over the class's `operator=` with the
//! object expression `declval<T>()` — `std::function`'s templated and
//! non-templated assignments make `is_move_assignable<function<…>>` true,
//! which `unique_ptr`'s `__uniq_ptr_data<T, D, true, true>` selects.

use super::*;

/// `None`: not decided here (no declared `operator=`, a type the model
/// does not know, or too deep).
pub(crate) fn class_assignable(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    super::constructible::nested_trait(|| decide(cx, t, args))
}

fn decide(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    let db = cx.db;
    let [u] = args else { return None };
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let object = super::constructible::declval_arg(db, t)?;
    let class = inf.class_ref(strip_cv(db, canonical(db, object.ty)))?;
    let cands = instances::member_fns(db, class, "operator=");
    if cands.is_empty() {
        return None;
    }
    let arg = super::constructible::declval_arg(db, *u)?;
    match inf.resolve_overload(&cands, None, &[arg], Some(object)) {
        Ok(_) => Some(true),
        Err(e) if e == DELETED => Some(false),
        // The implicit copy or move assignment may still take it.
        Err(_) => None,
    }
}

