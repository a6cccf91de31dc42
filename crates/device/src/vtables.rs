//! The virtual tables cicc keeps (spec 40 §4.3): a polymorphic class that
//! needed code constructs has its vtable emitted on the device (an array
//! holding the addresses of its device virtual functions, zeros for the
//! host ones), host classes included (`std::basic_ios<char>`), with its
//! VTT when the class has virtual bases; and the vtables of the C++
//! runtime's type-information classes those tables' type information
//! refers to (`__cxxabiv1::__class_type_info` for a class without bases,
//! `__si_class_type_info` for one public non-virtual base,
//! `__vmi_class_type_info` otherwise). Names are the Itanium special
//! names (`_ZTV`, `_ZTT`).

use cufront_base_db::SourceDatabase;
use cufront_hir::instances::{self, SpecialKind};
use cufront_hir::item_tree::Access;
use cufront_hir::templates::{self, ClassRefT};
use cufront_hir::ty::{TyId, TyKind};
use cufront_hir::{Entity, def_map};
use cufront_mangle as m;

/// The class whose object constructor `e` constructs, if `e` is one
/// whose body cicc has: an implicit one, an inheriting one, or one the unit
/// defines (`std::ios_base::ios_base()`, defined in the library, stores no
/// vtable here).
pub fn constructed_class(db: &dyn SourceDatabase, e: Entity) -> Option<ClassRefT> {
    match e {
        Entity::Special(sp) => {
            matches!(sp.kind(db), SpecialKind::DefaultCtor | SpecialKind::CopyCtor | SpecialKind::MoveCtor)
                .then(|| sp.class(db))
        }
        Entity::Inherited(ic) => Some(ic.class(db)),
        Entity::Fn(_) | Entity::FnInst(_) => {
            instances::body_owner(db, e)?;
            instances::ctor_class(db, e)
        }
        _ => None,
    }
}

/// The tables a constructed class `c` brings (none unless polymorphic):
/// its vtable, or its VTT when it has virtual bases, and the vtable of its
/// type information's class when the unit defines that type information
/// (the class has no key function).
pub fn class_tables(db: &dyn SourceDatabase, c: ClassRefT) -> Vec<String> {
    if !instances::is_polymorphic(db, c) {
        return Vec::new();
    }
    let Some(t) = class_type(db, c) else { return Vec::new() };
    let mut out = Vec::new();
    let special = |s: m::Special| m::symbol(&m::Encoding::Special(Box::new(s))).ok();
    // A class with virtual bases is constructed through its VTT.
    if has_virtual_base(db, c, 0) {
        out.extend(special(m::Special::Vtt(t)));
    } else {
        out.extend(special(m::Special::Vtable(t)));
    }
    if has_key_function(db, c) {
        // Its type information is defined where its key function is.
        return out;
    }
    let bases = templates::class_bases_of(db, c);
    let info = match bases.as_slice() {
        [] => "__class_type_info",
        [b] if !b.is_virtual && b.access == Access::Public => "__si_class_type_info",
        _ => "__vmi_class_type_info",
    };
    out.push(format!("_ZTVN10__cxxabiv1{}{info}E", info.len()));
    out
}

/// The mangler's type of class `c`.
fn class_type(db: &dyn SourceDatabase, c: ClassRefT) -> Option<m::Type> {
    let (kind, k) = match c {
        ClassRefT::Class(k) => (TyKind::Class(k), k),
        ClassRefT::Inst(i) => (TyKind::Inst(i), i.class(db)),
    };
    let map = def_map(db, k.tu(db));
    cufront_hir::symbols::mangle_ty(db, &map, TyId::new(db, kind)).ok()
}

fn has_virtual_base(db: &dyn SourceDatabase, c: ClassRefT, depth: u32) -> bool {
    depth < 32
        && templates::class_bases_of(db, c)
            .iter()
            .any(|b| b.is_virtual || b.class.is_some_and(|bc| has_virtual_base(db, bc, depth + 1)))
}

/// Whether `c` declares a key function: a virtual function neither pure
/// nor inline (declared in the class body without a definition there),
/// whose definition places the class's vtable and type information.
fn has_key_function(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let k = match c {
        ClassRefT::Class(k) => k,
        ClassRefT::Inst(i) => i.class(db),
    };
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return false };
    map.scope(s).names.values().flatten().any(|d| match d {
        cufront_hir::Def::Fn(f) => instances::FnDecl::Fn(*f).data(db).is_some_and(|x| {
            x.is_virtual && !x.virt.pure && !x.linkage.is_inline && !x.linkage.is_definition && !x.defaulted
        }),
        _ => false,
    })
}
