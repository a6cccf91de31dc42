//! Inheriting constructors (`using Base::Base;`, [namespace.udecl]/3,
//! [class.inhctor.init]).
//!
//! The using-declaration makes the base's constructors candidates when the
//! derived class is constructed. g++ does not call the base constructor in
//! place: it emits a constructor of the derived class named after the base
//! one, `<derived> CI1 <base type> [<template-args>] E <base params>`
//! (`_ZN1DCI11BEi`), whose body calls the base constructor. Such a
//! constructor is an `InheritedCtorId`: the derived class and the base
//! constructor entity it forwards to.

use cufront_base_db::SourceDatabase;
use cufront_mangle as m;

use super::{FnDecl, member_fns_depth};
use crate::Entity;
use crate::item_tree::{FnName, TypeRef};
use crate::scopes::{self, Def, def_map};
use crate::templates::{self, ClassRefT, InstId};
use crate::ty::{self, LowerCx};

/// The constructor of `class` that inherits the base constructor `base`
/// (an `Entity::Fn` or `Entity::FnInst`).
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct InheritedCtorId {
    #[returns(copy)]
    pub class: ClassRefT,
    #[returns(copy)]
    pub base: Entity,
}

/// The constructors `c` inherits: those of each base that a
/// using-declaration in `c` names by its injected-class-name
/// (`using B<T>::B;`). Inherited copy and move constructors of the base are
/// left out (they are never chosen to construct the derived class,
/// [over.match.funcs]/8).
pub(crate) fn inherited_ctors(db: &dyn SourceDatabase, c: ClassRefT, depth: u32) -> Vec<(FnDecl, Option<InstId>)> {
    let mut out = Vec::new();
    for (base, base_name) in using_bases(db, c) {
        for (f, outer) in member_fns_depth(db, base, scopes::CTOR_KEY, depth + 1) {
            if !is_copy_or_move(db, f, &base_name) {
                out.push((f, outer));
            }
        }
        // The base's own inherited constructors are its constructors
        // too (`variant`'s `_Move_assign_base` → `_Copy_assign_base` →
        // … → `_Variant_storage`, each `using _Base::_Base;`).
        if depth < MAX_INHERIT_DEPTH {
            out.extend(inherited_ctors(db, base, depth + 1));
        }
    }
    out
}

/// Levels of `using B::B;` followed (each level is a base class).
const MAX_INHERIT_DEPTH: u32 = 8;

/// What the inheriting constructor `id` calls: the base constructor itself
/// when the base through which `id.class` inherits it declares it, else
/// that base's own inheriting constructor (g++ emits one per level:
/// `_ZN2MA…CI12St…` calls `_ZN2CC…CI12St…`, which calls `St`'s).
pub fn forwarded(db: &dyn SourceDatabase, id: InheritedCtorId) -> Entity {
    let target = id.base(db);
    let key = match target {
        Entity::Fn(f) => (FnDecl::Fn(f), None),
        Entity::FnInst(i) => (i.decl(db), i.outer(db)),
        _ => return target,
    };
    for (base, _) in using_bases(db, id.class(db)) {
        if member_fns_depth(db, base, scopes::CTOR_KEY, 1).contains(&key) {
            return target;
        }
        if inherited_ctors(db, base, 1).contains(&key) {
            return Entity::Inherited(InheritedCtorId::new(db, base, target));
        }
    }
    target
}

/// The bases whose constructors `c` inherits (named by `using B::B;`),
/// each with the name the using-declaration gives it.
fn using_bases(db: &dyn SourceDatabase, c: ClassRefT) -> Vec<(ClassRefT, String)> {
    let (class, env) = match c {
        ClassRefT::Class(k) => (k, None),
        ClassRefT::Inst(i) => (i.class(db), templates::inst_env(db, i).ok()),
    };
    let map = def_map(db, class.tu(db));
    let class = map.class_definition(class);
    let Some(&s) = map.class_scope.get(&class) else { return Vec::new() };
    let mut out = Vec::new();
    for d in map.scope(s).names.values().flatten() {
        let Def::UsingDecl(_, p) = d else { continue };
        let n = p.segments.len();
        if n < 2 || p.segments[n - 1].name != p.segments[n - 2].name {
            continue;
        }
        let mut q = p.clone();
        q.segments.pop();
        let base_name = q.segments[n - 2].name.clone();
        let cx = LowerCx { db, map: &map, item: class.item(db), scope: s, env: env.as_ref() };
        let t = ty::canonical(db, ty::lower(cx, &TypeRef::Path(q)));
        if let Some(b) = templates::class_of(db, t).ok().or_else(|| super::base_named(db, c, Some(&base_name))) {
            out.push((b, base_name));
        }
    }
    out
}

/// Whether a constructor takes exactly one reference to its own class
/// (as written: `B(const B&)`, `B(B&&)`).
fn is_copy_or_move(db: &dyn SourceDatabase, f: FnDecl, class_name: &str) -> bool {
    let Some(data) = f.data(db) else { return false };
    if !matches!(data.name, FnName::Ctor) || data.ty.params.len() != 1 {
        return false;
    }
    let mut t = &data.ty.params[0];
    match t {
        TypeRef::LRef(x) | TypeRef::RRef(x) => t = x,
        _ => return false,
    }
    if let TypeRef::Cv(x, _) = t {
        t = x;
    }
    matches!(t, TypeRef::Path(p) if p.segments.last().is_some_and(|s| s.name == class_name))
}

/// `_ZN <derived> CI1 <base type> [<template-args>] E <params>`: the base
/// constructor's name and signature, moved under the derived class.
pub(crate) fn inherited_ctor_name(db: &dyn SourceDatabase, id: InheritedCtorId) -> Result<String, crate::SemaError> {
    let base = id.base(db);
    let enc = match base {
        Entity::Fn(f) => crate::symbols::fn_encoding(db, f)?,
        Entity::FnInst(i) => crate::symbols::fn_instance_encoding(db, i)?,
        _ => return Err("an inherited constructor of no function".into()),
    };
    let m::Encoding::Function(base_name, f) = enc.into_encoding() else {
        return Err("an inherited constructor of no function".into());
    };
    let mut base_name = *base_name;
    let last = base_name.comps.pop().ok_or("empty name")?;
    let c = id.class(db);
    let k = c.pattern(db);
    let map = def_map(db, k.tu(db));
    let mut name = crate::symbols::class_ref_name(db, &map, c)?;
    name.comps.push(m::Component {
        name: m::Unqualified::InheritingCtor(m::CtorKind::Complete, Box::new(m::Type::Named(base_name))),
        abi_tags: Vec::new(),
        args: last.args,
    });
    m::mangle(&m::Encoding::Function(Box::new(name), f)).map_err(crate::SemaError::from)
}
