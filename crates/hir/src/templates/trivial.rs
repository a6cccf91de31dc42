//! The triviality traits of classes: `__is_trivially_copyable`,
//! `__is_trivial`, `__is_pod` and `__has_trivial_destructor`
//! ([class.prop]/1–2, [class.default.ctor]/3, [class.copy.ctor]/11,
//! [class.copy.assign]/9, [class.dtor]/8).
//!
//! A special member is trivial when it is not user-provided (implicit, or
//! `= default` where it is first declared) or deleted (as g++ counts it:
//! `__is_trivial` of a class whose default constructor is deleted, by a
//! reference member or `= delete`, is true), the class has no virtual
//! function and no virtual base (`Layout::dynamic`), and the same member
//! of every base and non-static data member is trivial; a default
//! constructor also needs no default member initializer. Access, other
//! constructors and non-special members do not matter (`__half`, with a
//! protected member and converting constructors, is trivial), which is
//! where the POD-for-layout flag the layout computes (C++03's POD) says
//! otherwise. Approximations: a subobject's member is "trivial" when its
//! class as a whole is trivially copyable (trivial, trivially destructible);
//! a constructor template never counts as a default, copy or move
//! constructor.

use cufront_base_db::SourceDatabase;

use crate::instances::{self, FnDecl};
use crate::item_tree_of;
use crate::scopes;
use crate::templates::{ClassRefT, class_of};
use crate::ty::{self, TyId, TyKind};

/// Which property is asked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trivially {
    /// Trivially copyable.
    Copyable,
    /// Trivial: trivially copyable with a trivial default constructor.
    Trivial,
    /// A trivial, non-deleted destructor.
    Destructible,
}

/// How a special member is declared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Decl {
    Provided,
    Defaulted,
    Deleted,
}

/// The declared special members of one class (`None`: not declared).
#[derive(Default)]
struct Specials {
    any_ctor: bool,
    default_ctor: Option<Decl>,
    copy_ctor: Option<Decl>,
    move_ctor: Option<Decl>,
    copy_assign: Option<Decl>,
    move_assign: Option<Decl>,
    dtor: Option<Decl>,
    virtual_dtor: bool,
}

/// Whether class `c` has the property. Errors: a class whose layout (and
/// so whose members) the model cannot compute.
pub(crate) fn class_is(
    db: &dyn SourceDatabase,
    c: ClassRefT,
    what: Trivially,
    depth: u32,
) -> Result<bool, crate::SemaError> {
    if depth > 32 {
        return Err("classes nested too deeply for a triviality trait".into());
    }
    let layout = crate::layout::layout_ref(db, c).map_err(|e| e.to_string())?;
    let sp = specials(db, c);
    let not_provided = |d: Option<Decl>| d != Some(Decl::Provided);
    let dtor_ok = !sp.virtual_dtor && not_provided(sp.dtor);
    let own_ok = match what {
        Trivially::Destructible => dtor_ok,
        _ if layout.dynamic || !dtor_ok => false,
        _ => {
            let copies = not_provided(sp.copy_ctor)
                && not_provided(sp.move_ctor)
                && not_provided(sp.copy_assign)
                && not_provided(sp.move_assign);
            let default_ok = what != Trivially::Trivial
                || match sp.default_ctor {
                    Some(d) => d != Decl::Provided && !has_member_init(db, c),
                    None => !sp.any_ctor && !has_member_init(db, c),
                };
            copies && default_ok
        }
    };
    if !own_ok {
        return Ok(false);
    }
    for b in layout.bases.iter() {
        if !class_is(db, b.class, what, depth + 1)? {
            return Ok(false);
        }
    }
    for f in layout.fields.iter().filter(|f| !f.via_anonymous) {
        if !member_is(db, f.ty, what, depth + 1)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A non-static data member's type: scalars and references are trivial
/// members, arrays are their elements, classes are asked.
fn member_is(db: &dyn SourceDatabase, t: TyId, what: Trivially, depth: u32) -> Result<bool, crate::SemaError> {
    let mut t = ty::canonical(db, t);
    loop {
        match t.kind(db) {
            TyKind::Array(x, _) | TyKind::Qualified(x, _) => t = ty::canonical(db, *x),
            _ => break,
        }
    }
    if matches!(t.kind(db), TyKind::LRef(_) | TyKind::RRef(_)) {
        return Ok(true);
    }
    match class_of(db, t) {
        Ok(c) => class_is(db, c, what, depth),
        Err(_) => Ok(true),
    }
}

/// Whether a non-static data member of `c` has a default member initializer.
fn has_member_init(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let k = c.pattern(db);
    item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).is_some_and(|d| d.fields.iter().any(|f| f.has_init))
}

fn specials(db: &dyn SourceDatabase, c: ClassRefT) -> Specials {
    let mut sp = Specials::default();
    let decl = |f: FnDecl| -> Option<(Decl, bool)> {
        let d = f.data(db)?;
        let how = if d.deleted {
            Decl::Deleted
        } else if d.defaulted {
            Decl::Defaulted
        } else {
            Decl::Provided
        };
        Some((how, d.is_virtual))
    };
    for (f, outer) in instances::member_fns(db, c, scopes::CTOR_KEY) {
        sp.any_ctor = true;
        let FnDecl::Fn(_) = f else { continue };
        let Some((how, _)) = decl(f) else { continue };
        let Ok(sig) = instances::signature(db, instances::fn_instance(db, f, outer, Vec::new())) else { continue };
        let required = sig.params.len() as u32 - crate::infer::param_defaults(db, f).min(sig.params.len() as u32);
        if required == 0 {
            sp.default_ctor = Some(how);
        }
        match sig.params.first().map(|&p| self_param(db, c, p)) {
            Some(Some(false)) if required <= 1 => sp.copy_ctor = Some(how),
            Some(Some(true)) if required <= 1 => sp.move_ctor = Some(how),
            _ => {}
        }
    }
    if let Some((found, fns)) = instances::member_fns_found(db, c, "operator=")
        && found == c
    {
        for (f, outer) in fns {
            let FnDecl::Fn(_) = f else { continue };
            let Some((how, _)) = decl(f) else { continue };
            let Ok(sig) = instances::signature(db, instances::fn_instance(db, f, outer, Vec::new())) else {
                continue;
            };
            if let [p] = sig.params.as_slice() {
                match self_param(db, c, *p) {
                    Some(false) => sp.copy_assign = Some(how),
                    Some(true) => sp.move_assign = Some(how),
                    None => {}
                }
            }
        }
    }
    for (f, _) in instances::member_fns(db, c, scopes::DTOR_KEY) {
        if let Some((how, virt)) = decl(f) {
            sp.dtor = Some(how);
            sp.virtual_dtor |= virt;
        }
    }
    sp
}

/// Whether parameter type `p` takes the class itself: `Some(false)` for
/// `[const] C&` or `C` (a copy), `Some(true)` for `C&&` (a move).
pub(crate) fn self_param(db: &dyn SourceDatabase, c: ClassRefT, p: TyId) -> Option<bool> {
    let p = ty::canonical(db, p);
    let (inner, moves) = match p.kind(db) {
        TyKind::LRef(x) => (*x, false),
        TyKind::RRef(x) => (*x, true),
        _ => (p, false),
    };
    let inner = match ty::canonical(db, inner).kind(db) {
        TyKind::Qualified(x, _) => ty::canonical(db, *x),
        _ => ty::canonical(db, inner),
    };
    (class_of(db, inner).ok()? == c).then_some(moves)
}
