//! The closure of what the unit's needed code references (spec 40 §4.1:
//! the device-side entity set is the needed-closure of the whole unit, host
//! code included; the execution-space filter applies when listing).
//!
//! Roots (§4.2): functions defined in the unit that are neither inline
//! nor `static` (host ones included: what their bodies reference is kept),
//! kernels, and the kernel template instances host code launches
//! (`hir::instances::required_entities`). Edges: what a body requires
//! (`hir::infer`'s `required`: calls resolved by overload resolution,
//! instances, variables), through every reached definition, kernel bodies
//! included, implicit special members and inheriting constructors through
//! what they call, constructors through their class's virtual functions
//! (the device ones in the vtable they store); a call EDG folds to its value (a `constexpr` function called
//! with constant arguments) is no edge. Each body is one `infer` query, so an edit inside a body
//! re-infers that body only; this walk re-runs but reads memoized results.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::instances::{self, SpecialKind, stub};
use cufront_hir::{Entity, def_map, item_tree_of};
use rustc_hash::{FxHashMap, FxHashSet};

/// How many entities the walk collects at most (as `hir`'s closure).
const MAX: usize = instances::MAX_ENTITIES;

/// How many instances of one function template a chain of references may
/// hold, each reached from the one before (EDG's default limit on pending
/// instantiations of one template, `--pending_instantiations=200`): a
/// recursion whose end the model does not select (CUB's
/// `CopySegment<ITERATION + 1>` when the `constant_t<SEGMENT_LENGTH>`
/// overload's bound is not evaluated) stops there instead of filling the
/// walk up to `MAX`.
const MAX_PENDING: usize = 200;

/// The reached entities, in first-reached order, each with the entity
/// that first reached it (`None`: a root).
#[salsa::tracked(returns(clone))]
pub fn device_closure(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<(Entity, Option<Entity>)>> {
    let map = def_map(db, tu);
    let mut seen: FxHashSet<Entity> = FxHashSet::default();
    let mut walked = FxHashSet::default();
    let mut out: Vec<(Entity, Option<Entity>)> = Vec::new();
    let mut queue = std::collections::VecDeque::new();
    // The entity that first reached each instance reached from a body (what
    // `pending` walks up).
    let mut parent: FxHashMap<Entity, Entity> = FxHashMap::default();
    let mut push =
        |e: Entity, from: Option<Entity>, out: &mut Vec<_>, queue: &mut std::collections::VecDeque<Entity>| {
            if seen.insert(e) {
                out.push((e, from));
                queue.push_back(e);
            }
        };
    for &e in map.entities.iter() {
        let Entity::Fn(f) = e else { continue };
        let tree = item_tree_of(db, f.item(db));
        let Some(d) = tree.fns.get(f.idx(db) as usize) else { continue };
        let inline = d.linkage.is_inline || d.linkage.is_constexpr || (d.in_class && d.qualifier.is_none());
        if d.linkage.is_definition && (d.linkage.kernel() || (!inline && !d.linkage.is_static)) {
            push(e, None, &mut out, &mut queue);
        }
    }
    for &e in instances::required_entities(db, tu).iter() {
        if matches!(e, Entity::FnInst(_)) && stub::kernel_decl(db, e).is_some() {
            push(e, None, &mut out, &mut queue);
        }
    }
    // An explicit instantiation definition defines its specialization: a
    // device one is kept, a host one is needed as a host function defined
    // in the unit is (what its body references is kept: the `__host__
    // __device__` constructor of a launch's `dim3` in a launcher class's
    // member).
    for &(_, _, i) in cufront_hir::infer::explicit_instances(db, tu).iter() {
        push(Entity::FnInst(i), None, &mut out, &mut queue);
    }
    while let Some(e) = queue.pop_front() {
        if out.len() >= MAX {
            break;
        }
        // What an implicit special member or an inheriting constructor
        // calls (it has no body of its own); a constructor also refers to
        // its class's vtable, whose device copy holds the addresses of the
        // device virtual functions only (the host ones are zeros).
        let device_virtuals =
            |c| instances::vtable_entities(db, c).into_iter().filter(|&v| crate::space::is_device_fn(db, v, false));
        let implicit: Vec<Entity> = match e {
            Entity::Special(sp) => {
                let mut r = instances::special_required(db, sp);
                if matches!(sp.kind(db), SpecialKind::DefaultCtor | SpecialKind::CopyCtor | SpecialKind::MoveCtor) {
                    r.extend(device_virtuals(sp.class(db)));
                }
                r
            }
            Entity::Inherited(ic) => vec![instances::inherited::forwarded(db, ic)],
            _ => instances::ctor_class(db, e).map(|c| device_virtuals(c).collect()).unwrap_or_default(),
        };
        for x in implicit {
            push(x, Some(e), &mut out, &mut queue);
        }
        let Some(owner) = instances::body_owner(db, e) else { continue };
        if !walked.insert(owner) {
            continue;
        }
        for &x in crate::registry::body_refs(db, owner).live.iter() {
            if let Entity::FnInst(i) = x
                && pending(db, &parent, e, i.decl(db)) >= MAX_PENDING
            {
                continue;
            }
            parent.entry(x).or_insert(e);
            push(x, Some(e), &mut out, &mut queue);
        }
    }
    Arc::new(out)
}

/// How many instances of the function template `decl` the chain of first
/// reachers ending at `e` holds.
fn pending(
    db: &dyn SourceDatabase,
    parent: &FxHashMap<Entity, Entity>,
    e: Entity,
    decl: cufront_hir::instances::FnDecl,
) -> usize {
    let mut n = 0;
    let mut cur = Some(e);
    let mut steps = 0;
    while let Some(c) = cur {
        if let Entity::FnInst(i) = c
            && i.decl(db) == decl
        {
            n += 1;
        }
        steps += 1;
        if steps > 4 * MAX_PENDING {
            break;
        }
        cur = parent.get(&c).copied();
    }
    n
}
