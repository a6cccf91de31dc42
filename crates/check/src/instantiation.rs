//! `static_assert`s that fail in class template instances (EDG 1574/2784,
//! as `asserts.rs` reports the others), with EDG's instantiation context:
//! `detected during instantiation of class "Check<T> [with T=char]" at
//! line 3`, or the `detected during:` list when one instance's member
//! instantiated the next. Checked against the real front end.
//!
//! The mechanism is the points of instantiation of the user's code: a
//! variable defined at namespace scope or in a body (not a reference, not
//! `extern`), a data member or a base of a class that is no template,
//! whose type is a class template specialization, needs that class
//! complete there.
//! (A parameter of a function definition does too; the body does not
//! record where parameters are named, so they are left out.) Instantiating it evaluates the pattern's asserts
//! in the instance and instantiates the specializations its non-static
//! data members name (the member's line is their point), each instance
//! once, at its first point. An error sorts at the user's point.
//!
//! Certainty: an instance is followed only when its pattern is a class
//! template at namespace scope (no partial or member class template), its
//! arguments are spelled as EDG spells them (`spell.rs`), and an assert
//! only when the interpreter evaluates it to `false`. Bases are followed
//! as data members are, their point the base's name.
//!
//! EDG's limit: an instantiation needed below 200 others is "excessive
//! recursion" (456), and the class stays incomplete (70), both at the
//! point that needed it, with the 200 as context. The walk therefore
//! never nests deeper than that, whatever the input.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, ContextEntry, ContextKind, DiagId, Entity, EntityKind, Severity};
use cufront_hir::infer::{self, InferOwner};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::TypeRef;
use cufront_hir::scopes::{DeclKey, ScopeKind, def_map};
use cufront_hir::static_asserts::{self, Context, Outcome, Place, StaticAssert};
use cufront_hir::templates::{self, ClassRefT, InstId};
use cufront_hir::ty::{self, TyId, TyKind, canonical};
use cufront_hir::{FnId, ItemId, item_offsets, item_tree_of};
use rustc_hash::FxHashSet;

use crate::{Found, asserts, spell};

/// The class template specializations one item's variables need complete:
/// (offset relative to the item, the type).
#[salsa::tracked(returns(clone))]
pub fn item_instantiations(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<(u32, TyId)>> {
    let tree = item_tree_of(db, item);
    let offsets = item_offsets(db, item);
    if tree.vars.is_empty() && offsets.fields.is_empty() && offsets.bases.is_empty() {
        return Arc::default();
    }
    let map = def_map(db, item.tu(db));
    let mut out = Vec::new();
    for (i, v) in tree.vars.iter().enumerate() {
        let Some(&at) = offsets.vars.get(i) else { continue };
        if v.qualifier.is_some() || !v.outer_tparams.is_empty() || v.linkage.is_extern {
            continue;
        }
        let me = cufront_hir::VarId::new(db, item, i as u32);
        let Some(&scope) = map.parent.get(&DeclKey::Var(me)) else { continue };
        if !matches!(map.scope(scope).kind, ScopeKind::Root | ScopeKind::Namespace { .. }) {
            continue;
        }
        let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
        if let Some(t) = specialization(db, ty::lower(cx, &v.ty)) {
            out.push((at, t));
        }
    }
    // The bases and data members of classes that are no templates.
    for &(ci, bi, at) in &offsets.bases {
        let c = cufront_hir::ClassId::new(db, item, ci);
        let Some(&scope) = map.class_scope.get(&c) else { continue };
        let Some(base) = tree.classes.get(ci as usize).and_then(|d| d.bases.get(bi as usize)) else { continue };
        if base.pack || crate::objects::in_template(&map, scope) {
            continue;
        }
        let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
        if let Some(t) = specialization(db, ty::lower(cx, &base.ty)) {
            out.push((at, t));
        }
    }
    for (at, _, ty) in crate::objects::concrete_fields(db, item) {
        if let Some(t) = specialization(db, ty) {
            out.push((at, t));
        }
    }
    out.sort_by_key(|&(at, _)| at);
    Arc::new(out)
}

/// The same for the locals of one body (offsets relative to its item).
#[salsa::tracked(returns(clone))]
pub fn fn_instantiations(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<(u32, TyId)>> {
    let body = infer::decl_body(db, FnDecl::Fn(f));
    if !body.locals.iter().any(|l| !l.is_static && names_class(&l.ty)) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let mut out = Vec::new();
    for (i, l) in body.locals.iter().enumerate() {
        let Some(Some(name)) = body.local_names.get(i) else { continue };
        if l.binding_of.is_some() || l.is_static {
            continue;
        }
        if let Some(t) = r.local_tys.get(i).copied().flatten().and_then(|t| specialization(db, t)) {
            out.push((u32::from(name.start()), t));
        }
    }
    Arc::new(out)
}

/// Whether a written type may be a class (a name, `auto`, `decltype`),
/// arrays and cv aside.
fn names_class(t: &TypeRef) -> bool {
    match t {
        TypeRef::Path(_) | TypeRef::Opaque(_) => true,
        TypeRef::Array(e, _) | TypeRef::Cv(e, _) => names_class(e),
        _ => false,
    }
}

/// `t` when it is (an array of) a class template specialization, cv aside.
fn specialization(db: &dyn SourceDatabase, t: TyId) -> Option<TyId> {
    let mut t = canonical(db, t);
    loop {
        match t.kind(db) {
            TyKind::Array(e, _) | TyKind::Qualified(e, _) => t = canonical(db, *e),
            TyKind::App(_) | TyKind::Inst(_) => return Some(t),
            _ => return None,
        }
    }
}

/// "excessive recursion at instantiation of %n"
const EXCESSIVE_RECURSION: DiagId = DiagId(456);
/// "incomplete type %t is not allowed"
const INCOMPLETE_TYPE: DiagId = DiagId(70);

/// One instantiation on the way to an assert: the instance and the offset
/// (in the unit) of the point that needed it.
type Step = (InstId, u32);

/// Instantiates, in order, what the unit's points (`(offset in the unit,
/// type)`) need, and returns the failing asserts with their context.
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit, points: &[(u32, TyId)]) -> Vec<Found> {
    let mut cx = Walk { db, tu, seen: FxHashSet::default(), out: Vec::new(), budget: 10_000 };
    for &(at, t) in points {
        cx.instantiate(t, at, at, &[]);
    }
    cx.out
}

struct Walk<'a> {
    db: &'a dyn SourceDatabase,
    tu: TranslationUnit,
    seen: FxHashSet<InstId>,
    out: Vec<Found>,
    /// Instances left to follow (a bound on runaway recursion).
    budget: u32,
}

impl Walk<'_> {
    /// Instantiates `t` needed at `point`, for the user's point `order`,
    /// below the instantiations `outer` (innermost last).
    fn instantiate(&mut self, t: TyId, point: u32, order: u32, outer: &[Step]) {
        let db = self.db;
        let Ok(ClassRefT::Inst(inst)) = templates::class_of(db, t) else { return };
        if self.budget == 0 || !self.seen.insert(inst) {
            return;
        }
        self.budget -= 1;
        let pattern = inst.class(db);
        let map = def_map(db, self.tu);
        let tree = item_tree_of(db, pattern.item(db));
        let Some(data) = tree.classes.get(pattern.idx(db) as usize) else { return };
        let at_namespace = map
            .parent
            .get(&DeclKey::Class(pattern))
            .is_some_and(|s| matches!(map.scope(*s).kind, ScopeKind::Root | ScopeKind::Namespace { .. }));
        if data.tparams.is_none() || data.spec_args.is_some() || !at_namespace || !data.is_definition {
            return;
        }
        if outer.len() >= templates::MAX_DEPTH as usize {
            self.too_deep(inst, point, order, outer);
            return;
        }
        let mut steps = outer.to_vec();
        steps.push((inst, point));
        let Some(&class_scope) = map.class_scope.get(&pattern) else { return };
        let Ok(env) = templates::inst_env(db, inst) else { return };
        let item = pattern.item(db);
        let Some(start) = crate::calls::item_starts(db, self.tu).into_iter().find(|(i, _)| *i == item).map(|(_, s)| s)
        else {
            return;
        };
        // The pattern's members in declaration order: data members name
        // specializations, asserts are evaluated where they stand.
        enum Member {
            Field(TyId),
            Assert(u32),
        }
        let mut members: Vec<(u32, Member)> = Vec::new();
        let offsets = item_offsets(db, item);
        for &(ci, bi, at) in &offsets.bases {
            if ci != pattern.idx(db) {
                continue;
            }
            let Some(base) = data.bases.get(bi as usize).filter(|b| !b.pack) else { continue };
            let cx = ty::LowerCx { db, map: &map, item, scope: class_scope, env: Some(&env) };
            if let Some(bt) = specialization(db, ty::lower(cx, &base.ty)) {
                members.push((start + at, Member::Field(bt)));
            }
        }
        for &(ci, fi, at) in &offsets.fields {
            if ci != pattern.idx(db) {
                continue;
            }
            let Some(field) = data.fields.get(fi as usize) else { continue };
            let cx = ty::LowerCx { db, map: &map, item, scope: class_scope, env: Some(&env) };
            if let Some(ft) = specialization(db, ty::lower(cx, &field.ty)) {
                members.push((start + at, Member::Field(ft)));
            }
        }
        for (i, a) in static_asserts::item_asserts(db, item).iter().enumerate() {
            if matches!(a.place, Place::Class { idx: Some(k), templated: true } if k == pattern.idx(db)) {
                members.push((start + a.at, Member::Assert(i as u32)));
            }
        }
        members.sort_by_key(|(at, _)| *at);
        for (at, m) in members {
            match m {
                Member::Field(ft) => self.instantiate(ft, at, order, &steps),
                Member::Assert(index) => {
                    let sa = StaticAssert { item, index, offset: at, context: Context::Instance(inst) };
                    if static_asserts::evaluate(db, self.tu, &sa) == Outcome::False
                        && let Some(found) = self.failed(item, index, at, order, &steps)
                    {
                        self.out.push(found);
                    }
                }
            }
        }
    }

    /// EDG's "excessive recursion at instantiation of class" and the
    /// incomplete type it leaves, where `inst` is needed below `steps`.
    fn too_deep(&mut self, inst: InstId, point: u32, order: u32, steps: &[Step]) {
        let db = self.db;
        let (Some(name), Some(context)) = (spell::instance(db, inst), self.context(steps)) else { return };
        let class = Entity { kind: Some(EntityKind::Class), name: name.clone(), ..Entity::default() };
        let incomplete = Arg::Type { spelling: name, aka: None };
        for (id, arg) in [(EXCESSIVE_RECURSION, Arg::Entity(class)), (INCOMPLETE_TYPE, incomplete)] {
            let mut found = Found::new(point, id, Severity::Error, vec![arg]);
            found.order = order;
            found.context = context.clone();
            self.out.push(found);
        }
    }

    /// The finding for assert `index` of `item` failing in the innermost of `steps`.
    fn failed(&self, item: ItemId, index: u32, at: u32, order: u32, steps: &[Step]) -> Option<Found> {
        let db = self.db;
        let asserts = static_asserts::item_asserts(db, item);
        let a = asserts.get(index as usize)?;
        let (id, args) = asserts::message(a);
        let mut found = Found::new(at, id, Severity::Error, args);
        found.order = order;
        found.context = self.context(steps)?;
        Some(found)
    }

    /// EDG's `detected during:` list for `steps`, innermost first.
    fn context(&self, steps: &[Step]) -> Option<Vec<ContextEntry>> {
        let db = self.db;
        let mut context = Vec::new();
        for &(inst, point) in steps.iter().rev() {
            let with = spell::instance_with_args(db, inst)?;
            context.push(ContextEntry {
                kind: ContextKind::Instantiation,
                entity: Entity {
                    kind: Some(EntityKind::Class),
                    name: with.clone(),
                    with_template_args: Some(with),
                    ..Entity::default()
                },
                at: crate::redefinition::position(db, self.tu, point),
            });
        }
        Some(context)
    }
}
