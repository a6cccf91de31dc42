//! The execution-space matrix of virtual overrides (spec 20 §5): an
//! overrider whose space differs from the function it overrides is an
//! error (3542–3547; "host" includes an unannotated function), reported at
//! the overrider's name.
//!
//! Overriding is found as [class.virtual] says: a member function of a
//! derived class with the name, parameter types and cv-qualification of a
//! virtual member function of a base (the nearest base that declares one).
//! Bases that are class template specializations are not searched yet
//! (silence).
//!
//! Two rules of [class.virtual] on the same search, both errors at the
//! member's name: a member declared `override` that overrides nothing
//! (1455), and a member that overrides a `final` one (1850, naming the
//! first `final` function found on the overriding chain, with where it is
//! declared). Only classes outside templates whose bases all resolve to
//! defined classes are judged; a signature the model cannot compute makes
//! the answer unknown (silence).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::exec_space::{ExecSpace, fn_exec_space};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::FnName;
use cufront_hir::layout::ClassRef;
use cufront_hir::scopes::{self, DefMap, ScopeKind, def_map};
use cufront_hir::ty::TyKind;
use cufront_hir::{ClassId, FnId, ItemId};

use crate::Raw;

/// What the host pass finds on the overriders one item declares (offsets
/// relative to the item).
#[salsa::tracked(returns(clone))]
pub fn item_override_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let tree = cufront_hir::item_tree_of(db, item);
    let offsets = cufront_hir::item_offsets(db, item);
    let map = def_map(db, item.tu(db));
    let mut out = Vec::new();
    for (i, f) in tree.fns.iter().enumerate() {
        if !f.in_class || f.friend || f.linkage.is_static || matches!(f.name, FnName::Ctor | FnName::Dtor) {
            continue;
        }
        let decl = FnDecl::Fn(FnId::new(db, item, i as u32));
        let parent = decl.parent(db, &map);
        let ScopeKind::Class(class) = map.scope(parent).kind else { continue };
        if !map.templated.contains(&parent)
            && let Some(&at) = offsets.fns.get(i)
        {
            match overrides(db, &map, class, decl, 0) {
                Some(Overrides::Nothing) if f.virt.override_ => {
                    out.push(Raw { at, id: OVERRIDES_NOTHING, severity: Severity::Error, args: vec![] });
                }
                Some(Overrides::Final(base_fn)) => {
                    if let Some(entity) = declared_entity(db, &map, base_fn) {
                        let args = vec![Arg::Entity(entity)];
                        out.push(Raw { at, id: OVERRIDES_FINAL, severity: Severity::Error, args });
                    }
                }
                _ => {}
            }
        }
        let Some(base_fn) = overridden(db, &map, class, decl, 0) else { continue };
        let (Some(&at), Some(id)) = (offsets.fns.get(i), mismatch(fn_exec_space(db, base_fn), fn_exec_space(db, decl)))
        else {
            continue;
        };
        let args = vec![Arg::Entity(entity(db, &map, base_fn)), Arg::Entity(entity(db, &map, decl))];
        out.push(Raw { at, id, severity: Severity::Error, args });
    }
    Arc::new(out)
}

/// `member function declared with "override" does not override a base class member`.
const OVERRIDES_NOTHING: DiagId = DiagId(1455);
/// `cannot override "final" %nd`.
const OVERRIDES_FINAL: DiagId = DiagId(1850);

/// What a member function overrides, as far as the model is sure.
enum Overrides {
    Nothing,
    /// Virtual functions, none of them `final`.
    Some,
    /// A `final` virtual function (the first found).
    Final(FnDecl),
}

/// What `f`, a member of `class`, overrides (`None`: not sure): the
/// virtual functions of its bases with its signature, through all paths.
fn overrides(db: &dyn SourceDatabase, map: &DefMap, class: ClassId, f: FnDecl, depth: u32) -> Option<Overrides> {
    if depth > 32 {
        return None;
    }
    let data = f.data(db)?;
    let key = scopes::fn_name_key(&data.name);
    let mut found = Overrides::Nothing;
    for b in cufront_hir::ty::class_bases(db, map.class_definition(class)).iter() {
        let Some(ClassRef::Class(base)) = b.class else { return None };
        let base = map.class_definition(base);
        let s = *map.class_scope.get(&base)?;
        if map.templated.contains(&s) {
            return None;
        }
        for cand in scopes::own_fns(db, map, s, &key) {
            if matches!(cand, FnDecl::Template(_)) {
                continue;
            }
            if !sure_same_signature(db, cand, f)? {
                continue;
            }
            let virtual_ = cand.data(db).is_some_and(|d| d.is_virtual)
                || !matches!(overrides(db, map, base, cand, depth + 1)?, Overrides::Nothing);
            if virtual_ {
                if cand.data(db).is_some_and(|d| d.virt.final_) {
                    return Some(Overrides::Final(cand));
                }
                found = Overrides::Some;
            }
        }
        match overrides(db, map, base, f, depth + 1)? {
            Overrides::Final(g) => return Some(Overrides::Final(g)),
            Overrides::Some => found = Overrides::Some,
            Overrides::Nothing => {}
        }
    }
    Some(found)
}

/// Whether two member functions have one signature (`None`: a signature
/// the model cannot compute).
pub(crate) fn sure_same_signature(db: &dyn SourceDatabase, a: FnDecl, b: FnDecl) -> Option<bool> {
    let (ad, bd) = (a.data(db)?, b.data(db)?);
    if ad.ty.cv != bd.ty.cv || ad.ty.ref_qual != bd.ty.ref_qual || ad.ty.params.len() != bd.ty.params.len() {
        return Some(false);
    }
    if ad.ty.variadic != bd.ty.variadic {
        return Some(false);
    }
    let sig = |d: FnDecl| instances::signature(db, instances::fn_instance(db, d, None, Vec::new())).ok();
    let (x, y) = (sig(a)?, sig(b)?);
    let canon = |t| cufront_hir::ty::canonical(db, t);
    if x.params.iter().chain(&y.params).any(|&t| matches!(canon(t).kind(db), TyKind::Error(_))) {
        return None;
    }
    Some(x.params.iter().zip(&y.params).all(|(p, q)| canon(*p) == canon(*q)))
}

/// `function "B::f" (declared at line 2)`.
fn declared_entity(db: &dyn SourceDatabase, map: &DefMap, f: FnDecl) -> Option<DiagEntity> {
    let FnDecl::Fn(id) = f else { return None };
    // A specialization's name is spelt with its arguments: not done here.
    if let ScopeKind::Class(c) = map.scope(f.parent(db, map)).kind {
        let tree = cufront_hir::item_tree_of(db, c.item(db));
        let data = tree.classes.get(c.idx(db) as usize)?;
        if data.template != cufront_hir::item_tree::TemplateKind::None || data.spec_args.is_some() {
            return None;
        }
    }
    let tu = f.tu(db);
    let start = crate::calls::item_starts(db, tu).into_iter().find(|&(i, _)| i == id.item(db))?.1;
    let at = start + cufront_hir::item_offsets(db, id.item(db)).fns.get(id.idx(db) as usize)?;
    let declared_at = Some(crate::redefinition::position(db, tu, at));
    Some(DiagEntity { declared_at, ..entity(db, map, f) })
}

/// The message for an overridden function in space `base` overridden in `derived`.
fn mismatch(base: ExecSpace, derived: ExecSpace) -> Option<DiagId> {
    use ExecSpace::*;
    Some(DiagId(match (base, derived) {
        (Host | ImplicitHost, Device) => 3542,
        (Host | ImplicitHost, HostDevice) => 3543,
        (Device, HostDevice) => 3544,
        (Device, Host | ImplicitHost) => 3545,
        (HostDevice, Host | ImplicitHost) => 3546,
        (HostDevice, Device) => 3547,
        _ => return None,
    }))
}

/// The virtual function of a base of `class` that `f` overrides: the
/// nearest one, depth first in base order.
fn overridden(db: &dyn SourceDatabase, map: &DefMap, class: ClassId, f: FnDecl, depth: u32) -> Option<FnDecl> {
    if depth > 32 {
        return None;
    }
    let data = f.data(db)?;
    let key = scopes::fn_name_key(&data.name);
    for b in cufront_hir::ty::class_bases(db, map.class_definition(class)).iter() {
        let Some(ClassRef::Class(base)) = b.class else { continue };
        let base = map.class_definition(base);
        if let Some(&s) = map.class_scope.get(&base) {
            for cand in scopes::own_fns(db, map, s, &key) {
                if same_signature(db, cand, f) {
                    return is_virtual(db, map, base, cand, depth).then_some(cand);
                }
            }
        }
        if let Some(found) = overridden(db, map, base, f, depth + 1) {
            return Some(found);
        }
    }
    None
}

/// Declared `virtual` (or `override`/`final`), or overriding a virtual function.
fn is_virtual(db: &dyn SourceDatabase, map: &DefMap, class: ClassId, f: FnDecl, depth: u32) -> bool {
    f.data(db).is_some_and(|d| d.is_virtual) || overridden(db, map, class, f, depth + 1).is_some()
}

fn same_signature(db: &dyn SourceDatabase, a: FnDecl, b: FnDecl) -> bool {
    if matches!(a, FnDecl::Template(_)) || matches!(b, FnDecl::Template(_)) {
        return false;
    }
    let (Some(ad), Some(bd)) = (a.data(db), b.data(db)) else { return false };
    if ad.ty.cv != bd.ty.cv || ad.ty.params.len() != bd.ty.params.len() {
        return false;
    }
    let sig = |d: FnDecl| instances::signature(db, instances::fn_instance(db, d, None, Vec::new())).ok();
    match (sig(a), sig(b)) {
        (Some(x), Some(y)) => x
            .params
            .iter()
            .zip(&y.params)
            .all(|(p, q)| cufront_hir::ty::canonical(db, *p) == cufront_hir::ty::canonical(db, *q)),
        _ => false,
    }
}

/// `function "B::h"`.
fn entity(db: &dyn SourceDatabase, map: &DefMap, f: FnDecl) -> DiagEntity {
    let name = f.data(db).map(|d| scopes::fn_name_key(&d.name)).unwrap_or_default();
    let class = match map.scope(f.parent(db, map)).kind {
        ScopeKind::Class(c) => cufront_hir::layout::class_name(db, c),
        _ => String::new(),
    };
    DiagEntity { kind: Some(EntityKind::Function), name: format!("{class}::{name}"), ..DiagEntity::default() }
}
