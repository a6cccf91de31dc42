//! `__is_assignable(T, U)` for a class with declared assignment operators:
//! whether `declval<T>() = declval<U>()` is well-formed ([meta.unary.prop]),
//! decided by overload resolution over the class's `operator=` with the
//! object expression `declval<T>()` — `std::function`'s templated and
//! non-templated assignments make `is_move_assignable<function<…>>` true,
//! which `unique_ptr`'s `__uniq_ptr_data<T, D, true, true>` selects.

use std::cell::Cell;

use super::*;

thread_local! {
    /// Nesting (operator constraints ask for other classes' assignability).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// `None`: not decided here (no declared `operator=`, a type the model
/// does not know, or too deep).
pub(crate) fn class_assignable(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    let depth = DEPTH.with(Cell::get);
    if depth >= 8 {
        return None;
    }
    DEPTH.with(|d| d.set(depth + 1));
    let r = decide(cx, t, args);
    DEPTH.with(|d| d.set(depth));
    r
}

fn decide(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    let db = cx.db;
    let [u] = args else { return None };
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let object = declval(db, t)?;
    let class = inf.class_ref(strip_cv(db, canonical(db, object.ty)))?;
    let cands = instances::member_fns(db, class, "operator=");
    if cands.is_empty() {
        return None;
    }
    let arg = declval(db, *u)?;
    match inf.resolve_overload(&cands, None, &[arg], Some(object)) {
        Ok(_) => Some(true),
        Err(e) if e == DELETED => Some(false),
        // The implicit copy or move assignment may still take it.
        Err(_) => None,
    }
}

/// The expression `declval<U>()`: `U&` an lvalue, `U&&` and `U` xvalues.
fn declval(db: &dyn SourceDatabase, u: TyId) -> Option<Arg> {
    let u = canonical(db, u);
    let (ty, cat) = match u.kind(db) {
        TyKind::LRef(x) => (*x, Category::LValue),
        TyKind::RRef(x) => (*x, Category::XValue),
        TyKind::Error(_) => return None,
        _ => (u, Category::XValue),
    };
    if matches!(canonical(db, ty).kind(db), TyKind::Error(_)) {
        return None;
    }
    Some(Arg { ty, cat, null: false, braced: false })
}
