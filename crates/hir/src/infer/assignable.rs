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
    let arg = super::constructible::declval_arg(db, *u)?;
    if cands.is_empty() {
        return implicit_assignable(cx, class, object, arg);
    }
    match inf.resolve_overload(&cands, None, &[arg], Some(object)) {
        Ok(_) => Some(true),
        Err(Unresolved::Deleted(_)) => Some(false),
        // The implicit copy or move assignment may still take it (it is
        // declared beside an `operator=` template or one from another type).
        Err(_) => implicit_assignable(cx, class, object, arg),
    }
}

/// Assignment from the same class through the implicitly declared copy or
/// move `operator=` ([class.copy.assign]): defined as deleted when a
/// member is a reference or const, or a base or member cannot itself be
/// assigned from the corresponding subobject (libcu++'s
/// `is_copy_assignable<_TestSynthesizeAssignment<T>>`, an aggregate
/// around a `T` with a user-declared `operator=`). Declared constructors
/// matter only as copy or move constructors: a move constructor deletes
/// the copy assignment and suppresses the move assignment (thrust's
/// `normal_iterator`, with converting constructors, stays assignable).
fn implicit_assignable(cx: LowerCx<'_>, class: ClassRefT, object: Arg, arg: Arg) -> Option<bool> {
    let db = cx.db;
    let src = strip_cv(db, canonical(db, arg.ty));
    if templates::class_of(db, src).ok()? != class {
        return None;
    }
    let k = class.pattern(db);
    let tree = item_tree_of(db, k.item(db));
    let d = tree.classes.get(k.idx(db) as usize)?;
    if d.user_copy_assign || !d.is_definition || d.key == crate::item_tree::ClassKey::Union {
        return None;
    }
    if instances::declares_move(db, class) {
        return Some(false);
    }
    let cv = |t: TyId| match canonical(db, t).kind(db) {
        TyKind::Qualified(_, cv) => *cv,
        _ => Cv::default(),
    };
    // The implicit `operator=` is a non-const member function.
    if cv(object.ty).c {
        return Some(false);
    }
    if cv(arg.ty).v {
        return None;
    }
    // An rvalue source uses the implicit move assignment when the class
    // has one (no user-declared copy constructor or destructor), else the copy.
    let moving = arg.cat != Category::LValue && !instances::move_assign_suppressed(db, class) && !cv(arg.ty).c;
    let mut subobjects: Vec<TyId> = Vec::new();
    for b in templates::class_bases_of(db, class).iter() {
        match b.ty {
            Some(t) if !b.is_virtual => subobjects.push(t),
            _ => return None,
        }
    }
    let l = crate::layout::layout_ref(db, class).ok()?;
    subobjects.extend(l.fields.iter().map(|f| f.ty));
    for t in subobjects {
        let mut t = canonical(db, t);
        while let TyKind::Array(x, _) = t.kind(db) {
            t = canonical(db, *x);
        }
        match t.kind(db) {
            TyKind::LRef(_) | TyKind::RRef(_) => return Some(false),
            TyKind::Qualified(_, q) if q.c => return Some(false),
            TyKind::Error(_) => return None,
            _ => {}
        }
        let from = if moving {
            mk(db, TyKind::RRef(t))
        } else {
            mk(db, TyKind::LRef(mk(db, TyKind::Qualified(strip_cv(db, t), Cv { c: true, ..cv(t) }))))
        };
        match crate::consteval::traits::eval_trait(cx, "is_assignable", &[mk(db, TyKind::LRef(t)), from]) {
            Ok(true) => {}
            Ok(false) => return Some(false),
            Err(_) => return None,
        }
    }
    Some(true)
}
