//! Type trait builtins (`__is_base_of(B, D)`, …) beyond what
//! `templates::type_trait` answers from layout: class relations and
//! approximations of the special-member traits from what the item tree
//! knows (user-declared constructors, assignment, destructor).

use cufront_base_db::SourceDatabase;

use crate::item_tree::Builtin;
use crate::templates::{self, ClassRefT, TraitError};
use crate::ty::{self, TyId, TyKind};

/// Evaluates the trait `name` (without underscores) on `tys`.
pub fn eval_trait(cx: ty::LowerCx<'_>, name: &str, tys: &[TyId]) -> Result<bool, TraitError> {
    let db = cx.db;
    match templates::type_trait(db, name, tys) {
        Ok(b) => return Ok(b),
        Err(e @ TraitError::Failed(_)) => return Err(e),
        Err(TraitError::NotEvaluated(_)) => {}
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
        "is_trivially_constructible"
        | "is_trivially_assignable"
        | "is_nothrow_constructible"
        | "is_nothrow_assignable"
        | "is_constructible"
        | "is_assignable" => {
            let assign = name.ends_with("assignable");
            // Binding a reference to a reference-related object is valid
            // (and trivial, and noexcept) or not by the value category and
            // cv-qualification alone ([dcl.init.ref]/5).
            if !assign
                && let [to, from] = tys
                && let Some(b) = reference_binding(db, *to, *from)
            {
                return Ok(b);
            }
            // A closure's implicit copy and move constructors (deleted only
            // for a capture that cannot be copied, which is not modelled):
            // `std::function`'s `is_copy_constructible<__decay_t<_Functor>>`.
            if name == "is_constructible"
                && matches!(c0.kind(db), TyKind::Closure(_))
                && let [_, from] = tys
                && strip_ref(db, *from) == c0
            {
                return Ok(true);
            }
            // Default construction and assignment of a closure: only a
            // captureless one from C++20 on (`closure_shape`); there is
            // no other constructor or assignment (`unique_ptr`'s
            // `__uniq_ptr_data<…, is_move_assignable<_Dp>::value>`).
            let closure = |t: TyId| match ty::canonical(db, t).kind(db) {
                TyKind::Closure(c) => Some(*c),
                TyKind::Qualified(x, _) => match ty::canonical(db, *x).kind(db) {
                    TyKind::Closure(c) => Some(*c),
                    _ => None,
                },
                _ => None,
            };
            if !assign
                && tys.len() == 1
                && let Some(c) = closure(t0)
            {
                return Ok(crate::infer::closure_shape(db, c).defaulted);
            }
            if assign
                && let [to, from] = tys
                && let Some(c) = closure(strip_ref(db, *to))
            {
                // The defaulted `operator=` is a non-const member: any
                // non-const object expression.
                let referee = match ty::canonical(db, *to).kind(db) {
                    TyKind::LRef(x) | TyKind::RRef(x) => ty::canonical(db, *x),
                    _ => ty::canonical(db, *to),
                };
                let non_const = !matches!(referee.kind(db), TyKind::Qualified(_, cv) if cv.c);
                let same = closure(strip_ref(db, *from)) == Some(c);
                return Ok(same && non_const && crate::infer::closure_shape(db, c).defaulted);
            }
            let target = if assign { class(strip_ref(db, t0)) } else { class(t0) };
            match target {
                None => match scalar_special(db, t0, &tys[1..], assign)
                    .or_else(|| ptr_conversion(db, t0, &tys[1..], assign))
                {
                    Some(b) => b,
                    None => {
                        return Err(TraitError::NotEvaluated(format!(
                            "type trait __{name} on this type not evaluated"
                        )));
                    }
                },
                Some(c)
                    if !name.contains("trivially")
                        && tys.len() == 2
                        && class(strip_ref(db, tys[1])) == Some(c)
                        && implicit_copy_move(db, c, assign, 0) =>
                {
                    // The implicit `operator=` is a non-const member: any
                    // non-const object expression (an rvalue of class type too).
                    if assign {
                        let referee = match ty::canonical(db, t0).kind(db) {
                            TyKind::LRef(x) | TyKind::RRef(x) => ty::canonical(db, *x),
                            _ => ty::canonical(db, t0),
                        };
                        return Ok(!matches!(referee.kind(db), TyKind::Qualified(_, cv) if cv.c));
                    }
                    // Copy/move construction of a class whose copy and move
                    // constructors are implicit and not deleted: valid;
                    // implicit ones are noexcept when every member's is,
                    // which `implicit_copy_move` requires of the scalars and classes it accepts.
                    true
                }
                // Default construction through a declared constructor without
                // parameters (`constexpr default_delete() noexcept = default;`).
                Some(c) if name == "is_constructible" && tys.len() == 1 && declares_default_ctor(db, c) => true,
                Some(c) => {
                    if !trivial_class(db, c) {
                        // Construction through declared constructors: overload resolution.
                        if name == "is_constructible"
                            && let Some(b) = crate::infer::class_constructible(cx, t0, &tys[1..])
                        {
                            return Ok(b);
                        }
                        if name == "is_assignable"
                            && let Some(b) = crate::infer::class_assignable(cx, t0, &tys[1..])
                        {
                            return Ok(b);
                        }
                        if name == "is_trivially_constructible"
                            && let Some(b) = crate::infer::class_trivially_constructible(cx, t0, &tys[1..])
                        {
                            return Ok(b);
                        }
                        if name == "is_trivially_assignable"
                            && let Some(b) = crate::infer::class_trivially_assignable(cx, t0, &tys[1..])
                        {
                            return Ok(b);
                        }
                        return Err(TraitError::NotEvaluated(format!(
                            "type trait __{name} on a class with special members not evaluated"
                        )));
                    }
                    // Default construction, or copy/move from the same class.
                    let same = tys[1..].len() == 1 && tys[1..].iter().all(|t| class(strip_ref(db, *t)) == Some(c));
                    let ok_target = !assign || lvalue_ref_to_non_const(db, t0);
                    // A const member deletes the implicit assignments.
                    if assign && same && const_field(db, c) {
                        return Ok(false);
                    }
                    if (tys.len() == 1 && !assign) || (same && ok_target) {
                        true
                    } else {
                        return Err(TraitError::NotEvaluated(format!(
                            "type trait __{name} with other argument types not evaluated"
                        )));
                    }
                }
            }
        }
        "has_unique_object_representations" => match c0.kind(db) {
            TyKind::Builtin(b) => !matches!(b, Builtin::Float | Builtin::Double | Builtin::LongDouble | Builtin::Bool),
            _ => return Err(TraitError::NotEvaluated(format!("type trait __{name} not evaluated"))),
        },
        _ => return Err(TraitError::NotEvaluated(format!("type trait __{name} not evaluated"))),
    })
}

/// Whether the class declares a non-template constructor without
/// parameters (`= delete` is not seen by the item tree: such a constructor
/// is taken as usable).
fn declares_default_ctor(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let own = |(f, _): &(crate::instances::FnDecl, Option<templates::InstId>)| match f {
        crate::instances::FnDecl::Fn(_) => f.data(db).is_some_and(|d| d.ty.params.is_empty() && !d.ty.variadic),
        _ => false,
    };
    crate::instances::member_fns(db, c, crate::scopes::CTOR_KEY).iter().any(own)
}

/// A class whose special members are all implicit and trivial: no user
/// constructor, assignment or destructor, nothing virtual, no default
/// member initializer, no base, only scalar members.
fn trivial_class(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let k = c.pattern(db);
    let tree = crate::item_tree_of(db, k.item(db));
    let Some(d) = tree.classes.get(k.idx(db) as usize) else { return false };
    if d.user_ctor
        || d.user_copy_assign
        || d.user_dtor
        || d.has_virtual_fn
        || !d.bases.is_empty()
        || d.fields.iter().any(|f| f.has_init)
    {
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

/// Whether a reference of type `to` can be initialized by an expression
/// `declval<from>()`, when the two are reference-related (the same type
/// or `from` derived from it, cv aside): an lvalue reference to an lvalue
/// whose cv-qualification it keeps, an rvalue to a `const` (not
/// `volatile`) lvalue reference, an rvalue reference to an rvalue.
/// `None` when `to` is no reference or the types are not related
/// (a conversion function or a temporary may then decide).
fn reference_binding(db: &dyn SourceDatabase, to: TyId, from: TyId) -> Option<bool> {
    let (target, lvalue_ref) = match ty::canonical(db, to).kind(db) {
        TyKind::LRef(x) => (*x, true),
        TyKind::RRef(x) => (*x, false),
        _ => return None,
    };
    let (source, lvalue) = match ty::canonical(db, from).kind(db) {
        TyKind::LRef(x) => (*x, true),
        TyKind::RRef(x) => (*x, false),
        _ => (from, false),
    };
    let split = |t: TyId| {
        let t = ty::canonical(db, t);
        match t.kind(db) {
            TyKind::Qualified(x, cv) => (ty::canonical(db, *x), *cv),
            _ => (t, crate::item_tree::Cv::default()),
        }
    };
    let ((t, tcv), (u, ucv)) = (split(target), split(source));
    let related = t == u
        || match (templates::class_of(db, t), templates::class_of(db, u)) {
            (Ok(b), Ok(d)) => derives(db, d, b, 0),
            _ => false,
        };
    if !related || matches!(t.kind(db), TyKind::Func(_) | TyKind::Error(_) | TyKind::Dependent(_)) {
        return None;
    }
    let keeps_cv = (tcv.c || !ucv.c) && (tcv.v || !ucv.v);
    Some(keeps_cv && if lvalue_ref { lvalue || (tcv.c && !tcv.v) } else { !lvalue })
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

/// What a scalar category a type is in, for the construct/assign traits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scalar {
    Arith,
    Bool,
    Enum(bool),
    Ptr,
    NullPtr,
}

fn scalar_kind(db: &dyn SourceDatabase, t: TyId) -> Option<Scalar> {
    match strip(db, t).kind(db) {
        TyKind::Builtin(Builtin::Void) => None,
        TyKind::Builtin(Builtin::NullPtr) => Some(Scalar::NullPtr),
        TyKind::Builtin(Builtin::Bool) => Some(Scalar::Bool),
        TyKind::Builtin(_) => Some(Scalar::Arith),
        TyKind::Enum(e) => {
            let scoped = crate::item_tree_of(db, e.item(db)).enums.get(e.idx(db) as usize).is_some_and(|d| d.scoped);
            Some(Scalar::Enum(scoped))
        }
        TyKind::Ptr(_) => Some(Scalar::Ptr),
        _ => None,
    }
}

/// `__is_constructible(T, Args…)` / `__is_assignable(T, U)` where T (or,
/// for assignment, the type T refers to) is a scalar: direct-initialization
/// from one scalar by a standard conversion (scoped enums and pointers only
/// from their own type; a null pointer constant's type to a pointer), value-
/// initialization from none; assignment only to a non-const lvalue.
/// `None`: not decided here.
fn scalar_special(db: &dyn SourceDatabase, t0: TyId, args: &[TyId], assign: bool) -> Option<bool> {
    let c0 = ty::canonical(db, t0);
    let target = if assign {
        match c0.kind(db) {
            TyKind::LRef(x) => {
                if matches!(ty::canonical(db, *x).kind(db), TyKind::Qualified(_, cv) if cv.c) {
                    return Some(false);
                }
                *x
            }
            // An rvalue (or a prvalue) of scalar type is not assignable.
            TyKind::RRef(x) => return scalar_kind(db, *x).map(|_| false),
            _ => return scalar_kind(db, c0).map(|_| false),
        }
    } else {
        if matches!(c0.kind(db), TyKind::LRef(_) | TyKind::RRef(_)) {
            return None;
        }
        c0
    };
    let to = scalar_kind(db, target)?;
    let from = match args {
        [] => return (!assign).then_some(true),
        [a] => *a,
        _ => return Some(false),
    };
    let from_ty = strip_ref(db, from);
    let Some(fk) = scalar_kind(db, from_ty) else {
        // A class source (conversion operators) is not decided here.
        return if class_like(db, from_ty) { None } else { Some(false) };
    };
    let same = strip(db, target) == strip(db, from_ty);
    Some(match (to, fk) {
        _ if same => true,
        (Scalar::Arith | Scalar::Bool, Scalar::Arith | Scalar::Bool | Scalar::Enum(false)) => true,
        // `bool b(p)`: a boolean conversion (not in assignment either way… it is: `b = p` is valid).
        (Scalar::Bool, Scalar::Ptr) => true,
        (Scalar::Bool, Scalar::NullPtr) => !assign,
        (Scalar::Ptr, Scalar::NullPtr) => true,
        (Scalar::Ptr, Scalar::Ptr) => return None,
        _ => false,
    })
}

/// Construction (assignment) of an object pointer from one object pointer
/// by a standard conversion ([conv.ptr], [conv.qual]): the same pointee
/// with no qualifier lost, `void*` from any object pointer, a base class
/// pointer from a derived one (`pair<_Base_ptr, _Base_ptr>` from
/// `_Link_type&`). Multi-level and function pointers are not decided here.
fn ptr_conversion(db: &dyn SourceDatabase, t0: TyId, args: &[TyId], assign: bool) -> Option<bool> {
    let target = ty::canonical(db, t0);
    let target = match (assign, target.kind(db)) {
        (true, TyKind::LRef(x)) => ty::canonical(db, *x),
        (true, _) => return None,
        (false, _) => target,
    };
    let [from] = args else { return None };
    let pointee = |t: TyId| match ty::canonical(db, t).kind(db) {
        TyKind::Ptr(x) => Some(ty::canonical(db, *x)),
        _ => None,
    };
    let (tp, fp) = (pointee(target)?, pointee(strip_ref(db, *from))?);
    let cv = |t: TyId| match t.kind(db) {
        TyKind::Qualified(_, cv) => (cv.c, cv.v),
        _ => (false, false),
    };
    let ((tc, tv), (fc, fv)) = (cv(tp), cv(fp));
    let (tb, fb) = (strip(db, tp), strip(db, fp));
    let object = |t: TyId| !matches!(t.kind(db), TyKind::Ptr(_) | TyKind::Func(_) | TyKind::MemPtr { .. });
    if !object(tb) || !object(fb) {
        return None;
    }
    if (fc && !tc) || (fv && !tv) {
        return Some(false);
    }
    if tb == fb || matches!(tb.kind(db), TyKind::Builtin(Builtin::Void)) {
        return Some(true);
    }
    let class = |t: TyId| templates::class_of(db, t).ok();
    Some(match (class(tb), class(fb)) {
        (Some(b), Some(d)) => derives(db, d, b, 0),
        _ => false,
    })
}

fn class_like(db: &dyn SourceDatabase, t: TyId) -> bool {
    !matches!(
        strip(db, t).kind(db),
        TyKind::Builtin(_)
            | TyKind::Enum(_)
            | TyKind::Ptr(_)
            | TyKind::LRef(_)
            | TyKind::RRef(_)
            | TyKind::Array(..)
            | TyKind::Func(_)
    )
}

/// The traits `eval_trait` decides exactly or not at all (no approximation).
pub fn exact(name: &str) -> bool {
    matches!(
        name,
        "is_trivially_constructible"
            | "is_trivially_assignable"
            | "is_nothrow_constructible"
            | "is_nothrow_assignable"
            | "is_constructible"
            | "is_assignable"
            | "is_base_of"
            | "is_null_pointer"
    )
}

/// Lowers a trait's type arguments; one that names a template parameter
/// pack of the environment (`__is_constructible(T, Args...)`, `Args&&...`)
/// is expanded (a pack can appear there only expanded; the item tree drops
/// the `...`).
pub fn lower_trait_args(cx: ty::LowerCx<'_>, tys: &[crate::item_tree::TypeRef]) -> Vec<TyId> {
    lower_trait_args_at(cx, tys, None)
}

/// The name a trait's type argument is built on (`Args` of `const Args&`).
pub(crate) fn pack_head(t: &crate::item_tree::TypeRef) -> Option<&str> {
    use crate::item_tree::TypeRef as T;
    match t {
        T::Path(p) if p.segments.len() == 1 && !p.global && p.segments[0].args.is_none() => Some(&p.segments[0].name),
        T::Ptr(x) | T::LRef(x) | T::RRef(x) | T::Cv(x, _) => pack_head(x),
        _ => None,
    }
}

/// `lower_trait_args`; inside a pack expansion (`{ __is_same(T, Ts)... }`
/// at element `index`) a pack stands for that element only.
pub(crate) fn lower_trait_args_at(
    cx: ty::LowerCx<'_>,
    tys: &[crate::item_tree::TypeRef],
    index: Option<usize>,
) -> Vec<TyId> {
    use crate::templates::TemplateArg;
    let head = pack_head;
    let mut out = Vec::new();
    for t in tys {
        let pack = head(t).and_then(|n| match cx.env.and_then(|e| e.get(n)) {
            Some(TemplateArg::Pack(v)) => Some((n.to_string(), v.clone())),
            _ => None,
        });
        match (pack, cx.env) {
            (Some((n, elems)), Some(env)) if index.is_some() => {
                let mut e = env.clone();
                let el = index.and_then(|i| elems.get(i).cloned()).unwrap_or(TemplateArg::Dependent(n.clone()));
                e.names.push((n.clone(), el));
                out.push(ty::lower(ty::LowerCx { env: Some(&e), ..cx }, t));
            }
            (Some((n, elems)), Some(env)) => {
                for el in elems {
                    let mut e = env.clone();
                    e.names.push((n.clone(), el));
                    out.push(ty::lower(ty::LowerCx { env: Some(&e), ..cx }, t));
                }
            }
            _ => out.push(ty::lower(cx, t)),
        }
    }
    out
}

/// Whether a class's copy and move constructors are both implicit and not
/// deleted: no user-declared copy or move constructor, copy assignment or
/// destructor (a user-declared one could be deleted or suppress the move
/// constructor), not a union, nothing virtual; every base and non-static
/// member a scalar, a pointer, or a class of which the same holds.
fn lvalue_ref_to_non_const(db: &dyn SourceDatabase, t: TyId) -> bool {
    match ty::canonical(db, t).kind(db) {
        TyKind::LRef(x) => !matches!(ty::canonical(db, *x).kind(db), TyKind::Qualified(_, cv) if cv.c),
        _ => false,
    }
}

/// For `assign`, the same of the copy and move assignment operators: no
/// user-declared `operator=` either, and no const member.
fn implicit_copy_move(db: &dyn SourceDatabase, c: ClassRefT, assign: bool, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    let k = c.pattern(db);
    let tree = crate::item_tree_of(db, k.item(db));
    let Some(d) = tree.classes.get(k.idx(db) as usize) else { return false };
    if d.user_copy_assign
        || d.user_dtor
        || d.has_virtual_fn
        || d.key == crate::item_tree::ClassKey::Union
        || !d.is_definition
    {
        return false;
    }
    if d.user_ctor {
        // A copy or move constructor among the user-declared ones (a
        // template is never one): its first parameter refers to the class.
        let own = d.name.clone().unwrap_or_default();
        for (f, _) in crate::instances::member_fns(db, c, crate::scopes::CTOR_KEY) {
            let crate::instances::FnDecl::Fn(_) = f else { continue };
            let Some(data) = f.data(db) else { return false };
            let first = data.ty.params.first().map(|p| match p {
                crate::item_tree::TypeRef::LRef(x) | crate::item_tree::TypeRef::RRef(x) => Some(&**x),
                _ => None,
            });
            if let Some(Some(t)) = first {
                let t = match t {
                    crate::item_tree::TypeRef::Cv(x, _) => &**x,
                    t => t,
                };
                if let crate::item_tree::TypeRef::Path(p) = t
                    && p.segments.last().is_some_and(|s| s.name == own)
                {
                    return false;
                }
            }
        }
    }
    // A declared `operator=` from another type (`__half`'s from
    // `__half_raw`) needs a conversion where the implicit ones bind
    // directly: it leaves them the best. A template or a declared copy or
    // move assignment decides itself.
    if assign
        && crate::instances::member_fns(db, c, "operator=").iter().any(|&(f, outer)| match f {
            crate::instances::FnDecl::Template(_) => true,
            crate::instances::FnDecl::Fn(_) => {
                match crate::instances::signature(db, crate::instances::fn_instance(db, f, outer, Vec::new())) {
                    Ok(sig) => sig.params.len() != 1 || templates::trivial::self_param(db, c, sig.params[0]).is_some(),
                    Err(_) => true,
                }
            }
        })
    {
        return false;
    }
    let Ok(l) = crate::layout::layout_ref(db, c) else { return false };
    let mut tys: Vec<TyId> = l.fields.iter().map(|f| f.ty).collect();
    if assign && const_field(db, c) {
        return false;
    }
    for b in templates::class_bases_of(db, c).iter() {
        match b.ty {
            Some(t) if !b.is_virtual => tys.push(t),
            _ => return false,
        }
    }
    tys.into_iter().all(|t| {
        let mut t = ty::canonical(db, t);
        while let TyKind::Array(x, _) | TyKind::Qualified(x, _) = t.kind(db) {
            t = ty::canonical(db, *x);
        }
        match t.kind(db) {
            TyKind::Builtin(b) => *b != Builtin::Void,
            TyKind::Enum(_) | TyKind::Ptr(_) => true,
            _ => templates::class_of(db, t).is_ok_and(|fc| implicit_copy_move(db, fc, assign, depth + 1)),
        }
    })
}

/// Whether a class has a const non-static data member (arrays looked through).
fn const_field(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let Ok(l) = crate::layout::layout_ref(db, c) else { return false };
    l.fields.iter().any(|f| {
        let mut t = ty::canonical(db, f.ty);
        while let TyKind::Array(x, _) = t.kind(db) {
            t = ty::canonical(db, *x);
        }
        matches!(t.kind(db), TyKind::Qualified(_, cv) if cv.c)
    })
}
