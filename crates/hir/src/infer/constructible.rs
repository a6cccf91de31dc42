//! `__is_constructible(T, Args…)` for a class `T` with special members:
//! whether `T t(declval<Args>()...);` is well-formed
//! ([meta.unary.prop]), decided by overload resolution over `T`'s
//! constructors (inherited ones included) with the arguments `declval`
//! gives — `U&` an lvalue, `U&&` and `U` xvalues. A deleted winner makes it
//! false. When no declared constructor takes a copy or move of `T` itself,
//! the implicit copy constructor decides: deleted when a move constructor
//! is declared, otherwise valid when every base and member can be copied.

use std::cell::Cell;

use super::*;

thread_local! {
    /// Nesting of the special-member traits decided by overload resolution
    /// (`class_constructible`, `assignable::class_assignable`): constructor
    /// and operator constraints ask for other classes' constructibility or
    /// assignability, and sometimes their own class's.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// `f()` one level deeper in the special-member traits; `None` when too deep.
pub(super) fn nested_trait(f: impl FnOnce() -> Option<bool>) -> Option<bool> {
    let depth = DEPTH.with(Cell::get);
    if depth >= 8 {
        return None;
    }
    crate::guard::with_cell(&DEPTH, depth + 1, f)
}

/// `None`: not decided here (no declared constructor, a type the model
/// does not know, or too deep).
pub(crate) fn class_constructible(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    nested_trait(|| decide(cx, t, args))
}

fn decide(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    let db = cx.db;
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let c = strip_cv(db, canonical(db, t));
    let class = inf.class_ref(c)?;
    let args: Vec<Arg> = args.iter().map(|&a| declval_arg(db, a)).collect::<Option<_>>()?;
    let mut ctors = instances::member_fns(db, class, scopes::CTOR_KEY);
    ctors.extend(instances::inherited::inherited_ctors(db, class, 0));
    let implicit = |a: &Arg| {
        // The implicit move constructor is declared only when no copy
        // assignment and no destructor are ([class.copy.ctor]/8).
        let k = class.pattern(db);
        let tree = crate::item_tree_of(db, k.item(db));
        let d = tree.classes.get(k.idx(db) as usize)?;
        let moves = a.cat != Category::LValue && !d.user_copy_assign && !d.user_dtor;
        implicit_copy_valid(cx, class, moves)
    };
    if ctors.is_empty() {
        // Only implicit constructors: copies and moves are decided by the
        // members; default and aggregate initialization are not here.
        return match args.as_slice() {
            [] => implicit_default_valid(cx, class),
            [a] if inf.same_class(a.ty, c) => implicit(a),
            _ => None,
        };
    }
    match inf.resolve_overload(&ctors, None, &args, None) {
        Ok(_) => Some(true),
        Err(Unresolved::Deleted(_)) => Some(false),
        Err(_) => match args.as_slice() {
            [a] if inf.same_class(a.ty, c) => {
                // A declared copy constructor that did not fit (`C(C&)` from a
                // const object), or a declared move constructor (which deletes
                // the implicit copy): no implicit one to fall back on.
                if ctors.iter().any(|&cand| copy_or_move_ctor(&inf, cand, c).is_some()) {
                    return Some(false);
                }
                implicit(a)
            }
            _ => Some(false),
        },
    }
}

/// The argument `declval<U>()` is.
pub(super) fn declval_arg(db: &dyn SourceDatabase, u: TyId) -> Option<Arg> {
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

/// A non-template constructor whose only parameter is `C&` (`Some(false)`)
/// or `C&&` (`Some(true)`).
pub(super) fn copy_or_move_ctor(inf: &Infer<'_>, cand: Cand, c: TyId) -> Option<bool> {
    let db = inf.db;
    if !matches!(cand.0, FnDecl::Fn(_)) {
        return None;
    }
    let sig = instances::signature(db, instances::fn_instance(db, cand.0, cand.1, Vec::new())).ok()?;
    match sig.params.as_slice() {
        [p] => match canonical(db, *p).kind(db) {
            TyKind::LRef(x) if inf.same_class(*x, c) => Some(false),
            TyKind::RRef(x) if inf.same_class(*x, c) => Some(true),
            _ => None,
        },
        _ => None,
    }
}

/// The implicit default constructor is defined as deleted when a base or
/// a member cannot be default-initialized ([class.default.ctor]/2:
/// `is_default_constructible<equal_to<string>>`). A reference or const
/// member, which a default member initializer may initialize, is not
/// decided here.
fn implicit_default_valid(cx: LowerCx<'_>, class: ClassRefT) -> Option<bool> {
    let db = cx.db;
    let parts = subobject_types(db, class)?;
    if parts.iter().any(|t| matches!(t.kind(db), TyKind::LRef(_) | TyKind::RRef(_) | TyKind::Qualified(..))) {
        return None;
    }
    all_constructible(cx, parts.into_iter().map(|p| vec![p]))
}

/// The implicit copy (`moves`: move) constructor is defined as deleted
/// when a base or a member cannot be copied (moved) ([class.copy.ctor]/10).
fn implicit_copy_valid(cx: LowerCx<'_>, class: ClassRefT, moves: bool) -> Option<bool> {
    let db = cx.db;
    let mut parts = subobject_types(db, class)?;
    // A reference member is copied as a reference; an rvalue one deletes the copy.
    if parts.iter().any(|t| matches!(t.kind(db), TyKind::RRef(_))) {
        return Some(false);
    }
    parts.retain(|t| !matches!(t.kind(db), TyKind::LRef(_)));
    all_constructible(
        cx,
        parts.into_iter().map(|p| {
            let from = if moves {
                mk(db, TyKind::RRef(p))
            } else {
                mk(db, TyKind::LRef(mk(db, TyKind::Qualified(strip_cv(db, p), Cv { c: true, ..Cv::default() }))))
            };
            vec![p, from]
        }),
    )
}

/// The types of a class's subobjects an implicit constructor initializes:
/// its direct bases, then its members (not those of anonymous unions or
/// structs), arrays by their element type.
fn subobject_types(db: &dyn SourceDatabase, class: ClassRefT) -> Option<Vec<TyId>> {
    let mut parts: Vec<TyId> =
        templates::class_bases_of(db, class).iter().filter_map(|b| b.class).map(|b| class_ty(db, b)).collect();
    let layout = crate::layout::layout_ref(db, class).ok()?;
    for f in layout.fields.iter().filter(|f| !f.via_anonymous) {
        let mut t = canonical(db, f.ty);
        while let TyKind::Array(x, _) = t.kind(db) {
            t = canonical(db, *x);
        }
        parts.push(t);
    }
    Some(parts)
}

/// Whether `__is_constructible` holds for every argument list (`None`: one
/// is not decided).
fn all_constructible(cx: LowerCx<'_>, lists: impl Iterator<Item = Vec<TyId>>) -> Option<bool> {
    for args in lists {
        match crate::consteval::traits::eval_trait(cx, "is_constructible", &args) {
            Ok(true) => {}
            Ok(false) => return Some(false),
            Err(_) => return None,
        }
    }
    Some(true)
}
