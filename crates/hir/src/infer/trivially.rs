//! `__is_trivially_constructible(T, Args…)` and
//! `__is_trivially_assignable(T, U)` for a class with special members
//! ([meta.unary.prop]): the operation must be well-formed and call nothing
//! non-trivial, so overload resolution picks the constructor (`operator=`)
//! exactly as `__is_constructible` (`__is_assignable`) does, and then:
//! a user-provided function or a template wins → false (`std::string`'s
//! copy constructor: libstdc++'s `variant` chooses its non-trivial
//! `_Copy_ctor_base` from this); a defaulted or implicit one → true when
//! the same operation on every base and member is trivial (`pair<int, int>`
//! is trivially copy constructible though its assignments are
//! user-provided).

use super::constructible::declval_arg;
use super::*;

/// `None`: not decided here.
pub(crate) fn class_trivially_constructible(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    super::constructible::nested_trait(|| constructible(cx, t, args))
}

/// `None`: not decided here.
pub(crate) fn class_trivially_assignable(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    super::constructible::nested_trait(|| assignable(cx, t, args))
}

fn constructible(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    let db = cx.db;
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let c = strip_cv(db, canonical(db, t));
    let class = inf.class_ref(c)?;
    let call_args: Vec<Arg> = args.iter().map(|&a| declval_arg(db, a)).collect::<Option<_>>()?;
    let mut ctors = instances::member_fns(db, class, scopes::CTOR_KEY);
    ctors.extend(instances::inherited::inherited_ctors(db, class, 0));
    if !ctors.is_empty() {
        match inf.resolve_overload(&ctors, None, &call_args, None) {
            Ok((cand, _, _)) => {
                if !defaulted(db, cand.0)? {
                    return Some(false);
                }
            }
            Err(Unresolved::Deleted(_)) => return Some(false),
            // The implicit copy or move constructor may still take it
            // (`__is_constructible` decides that); not here.
            Err(_) => return None,
        }
    }
    implicit_is_trivial(cx, class, &call_args, &inf, c, false)
}

fn assignable(cx: LowerCx<'_>, t: TyId, args: &[TyId]) -> Option<bool> {
    let db = cx.db;
    let [u] = args else { return None };
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let object = declval_arg(db, t)?;
    let c = strip_cv(db, canonical(db, object.ty));
    let class = inf.class_ref(c)?;
    let arg = declval_arg(db, *u)?;
    let cands = instances::member_fns(db, class, "operator=");
    if !cands.is_empty() {
        match inf.resolve_overload(&cands, None, &[arg], Some(object)) {
            Ok((cand, _, _)) => {
                if !defaulted(db, cand.0)? {
                    return Some(false);
                }
            }
            Err(Unresolved::Deleted(_)) => return Some(false),
            Err(_) => return None,
        }
    }
    implicit_is_trivial(cx, class, &[arg], &inf, c, true)
}

/// Whether a selected special member is defaulted (not user-provided): a
/// template never is. `None`: its declaration is not known.
fn defaulted(db: &dyn SourceDatabase, f: FnDecl) -> Option<bool> {
    match f {
        FnDecl::Template(_) => Some(false),
        FnDecl::Fn(_) => f.data(db).map(|d| d.defaulted),
    }
}

/// Which defaulted (or implicit) special member is selected.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Special {
    Default,
    Copy,
    Move,
    CopyAssign,
    MoveAssign,
}

/// A defaulted or implicit special member selected for `args` is trivial
/// when the class is not dynamic, (a default constructor) no member has a
/// default initializer, and the same operation on every base and member
/// is trivial ([class.default.ctor]/3, [class.copy.ctor]/11,
/// [class.copy.assign]/9). `None`: not decided.
fn implicit_is_trivial(
    cx: LowerCx<'_>,
    class: ClassRefT,
    args: &[Arg],
    inf: &Infer<'_>,
    c: TyId,
    assign: bool,
) -> Option<bool> {
    let db = cx.db;
    let moves = |a: &Arg| {
        a.cat != Category::LValue && !matches!(canonical(db, a.ty).kind(db), TyKind::Qualified(_, cv) if cv.c)
    };
    let which = match (args, assign) {
        ([], false) => Special::Default,
        ([a], false) if inf.same_class(a.ty, c) => {
            if moves(a) {
                Special::Move
            } else {
                Special::Copy
            }
        }
        ([a], true) if inf.same_class(a.ty, c) => {
            if moves(a) {
                Special::MoveAssign
            } else {
                Special::CopyAssign
            }
        }
        _ => return None,
    };
    let layout = crate::layout::layout_ref(db, class).ok()?;
    if layout.dynamic {
        return Some(false);
    }
    if which == Special::Default && has_member_init(db, class) {
        return Some(false);
    }
    let mut parts: Vec<TyId> =
        templates::class_bases_of(db, class).iter().filter_map(|b| b.class).map(|b| class_ty(db, b)).collect();
    for f in layout.fields.iter().filter(|f| !f.via_anonymous) {
        let mut t = canonical(db, f.ty);
        while let TyKind::Array(x, _) | TyKind::Qualified(x, _) = t.kind(db) {
            t = canonical(db, *x);
        }
        parts.push(t);
    }
    let mut undecided = false;
    for p in parts {
        // Scalars and references are copied, moved and assigned trivially.
        if inf.class_ref(p).is_none() {
            continue;
        }
        let cref = |x: TyId| mk(db, TyKind::LRef(mk(db, TyKind::Qualified(x, Cv { c: true, ..Cv::default() }))));
        let r = match which {
            Special::Default => class_trivially_constructible(cx, p, &[]),
            Special::Copy => class_trivially_constructible(cx, p, &[cref(p)]),
            Special::Move => class_trivially_constructible(cx, p, &[mk(db, TyKind::RRef(p))]),
            Special::CopyAssign => class_trivially_assignable(cx, mk(db, TyKind::LRef(p)), &[cref(p)]),
            Special::MoveAssign => class_trivially_assignable(cx, mk(db, TyKind::LRef(p)), &[mk(db, TyKind::RRef(p))]),
        };
        match r {
            Some(true) => {}
            Some(false) => return Some(false),
            None => undecided = true,
        }
    }
    (!undecided).then_some(true)
}

/// Whether a non-static data member of `c` has a default member initializer.
fn has_member_init(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let k = c.pattern(db);
    crate::item_tree_of(db, k.item(db))
        .classes
        .get(k.idx(db) as usize)
        .is_some_and(|d| d.fields.iter().any(|f| f.has_init))
}
