//! C++20 constraints in overload resolution ([temp.constr], [over.match.viable]/3,
//! [over.match.best]/2.6): a candidate whose constraints evaluate to `false`
//! with its deduced arguments is not viable; among candidates otherwise
//! equal, the more constrained one wins.
//!
//! Constraints are `FnData::constraints` (head requires-clause, type-
//! constraints, trailing requires-clause), evaluated as constant
//! expressions in the candidate's instance environment; a concept-id is the
//! value of the concept's `bool` variable template. What the evaluator
//! cannot decide is *unknown*, and an unknown constraint never removes a
//! candidate: a wrong `false` would hide the function g++ calls.
//!
//! "More constrained" is approximated by the number of atomic constraints
//! after expanding conjunctions and the concept-ids they name: when one
//! constraint subsumes another it has at least the other's atoms, and a
//! valid program has no equal-rank candidates whose constraints do not
//! subsume one way or the other.

use super::*;
use crate::consteval::{self, EvalCx};
use crate::item_tree::{BinOp, ConstExpr};

crate::consteval::var_template::recorded_query! {
    /// Whether the constraints of an instance are satisfied: `Some(false)` when
    /// one of them evaluates to false, `Some(true)` when all evaluate to true,
    /// `None` when some could not be evaluated.
    pub fn constraints_satisfied(inst: FnInstanceId) -> Option<bool> = constraints_satisfied_of;
    tracked constraints_satisfied_uses;
    cycle constraints_satisfied_uses_cycle => satisfied_cycle;
}

fn constraints_satisfied_of(db: &dyn SourceDatabase, inst: FnInstanceId) -> Option<bool> {
    let decl = inst.decl(db);
    let data = decl.data(db)?;
    if data.constraints.is_empty() {
        return Some(true);
    }
    let env = instances::instance_env(db, inst).ok()?;
    let scope = instances::fn_scope(db, decl)?;
    let map = def_map(db, decl.tu(db));
    let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    all_hold(cx, &data.constraints)
}

/// Every constraint true: false as soon as one is, unknown if one is.
pub(crate) fn all_hold(cx: LowerCx<'_>, constraints: &[ConstExpr]) -> Option<bool> {
    let mut all = Some(true);
    for c in constraints {
        match truth(cx, c) {
            Some(false) => return Some(false),
            Some(true) => {}
            None => all = None,
        }
    }
    all
}

/// A constraint whose check needs itself (satisfaction recursing through
/// overload resolution of the same candidate): unknown.
fn satisfied_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _inst: FnInstanceId) -> Option<bool> {
    None
}

/// The truth of one constraint: conjunctions and disjunctions are decided
/// from the operands that could be evaluated (`unknown || true` is true,
/// `unknown && false` is false).
pub(super) fn truth(cx: LowerCx<'_>, e: &ConstExpr) -> Option<bool> {
    match e {
        ConstExpr::Binary(BinOp::And, l, r) => match (truth(cx, l), truth(cx, r)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        ConstExpr::Binary(BinOp::Or, l, r) => match (truth(cx, l), truth(cx, r)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        e => templates::nested(|| Ok(consteval::eval(&EvalCx::new(cx), e))).ok()?.ok().map(|v| v.v != 0),
    }
}

/// Whether the constraints of partial specialization `s` hold for the
/// arguments `full` it deduced (outer arguments first): as
/// `constraints_satisfied`.
pub(crate) fn spec_constraints_satisfied(
    db: &dyn SourceDatabase,
    map: &DefMap,
    s: crate::ClassId,
    full: &[TemplateArg],
) -> Option<bool> {
    let tree = item_tree_of(db, s.item(db));
    let data = tree.classes.get(s.idx(db) as usize)?;
    if data.constraints.is_empty() {
        return Some(true);
    }
    let env = templates::inst_env(db, InstId::new(db, s, full.to_vec())).ok()?;
    let scope = map.parent.get(&scopes::DeclKey::Class(s)).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map, item: s.item(db), scope, env: Some(&env) };
    all_hold(cx, &data.constraints)
}

/// How constrained a partial specialization is (as `weight`).
pub(crate) fn spec_constraint_weight(db: &dyn SourceDatabase, map: &DefMap, s: crate::ClassId) -> u32 {
    let tree = item_tree_of(db, s.item(db));
    let Some(data) = tree.classes.get(s.idx(db) as usize) else { return 0 };
    let scope = map.parent.get(&scopes::DeclKey::Class(s)).copied().unwrap_or(scopes::ROOT);
    data.constraints.iter().map(|c| atoms(db, map, s.item(db), scope, c, 0)).sum()
}

/// How constrained a candidate is: the number of atomic constraints of its
/// normal form's conjunction (concept-ids expanded, to a bounded depth).
pub(crate) fn weight(db: &dyn SourceDatabase, map: &DefMap, decl: FnDecl) -> u32 {
    let Some(data) = decl.data(db) else { return 0 };
    let Some(scope) = instances::fn_scope(db, decl) else { return 0 };
    let mut n = 0;
    for c in &data.constraints {
        n += atoms(db, map, decl.item(db), scope, c, 0);
    }
    n
}

fn atoms(db: &dyn SourceDatabase, map: &DefMap, item: ItemId, scope: ScopeIdx, e: &ConstExpr, depth: u32) -> u32 {
    if depth > 16 {
        return 1;
    }
    match e {
        ConstExpr::Binary(BinOp::And, l, r) => {
            atoms(db, map, item, scope, l, depth + 1) + atoms(db, map, item, scope, r, depth + 1)
        }
        ConstExpr::Path(p) if p.segments.last().is_some_and(|s| s.args.is_some()) => {
            // A concept-id: itself, plus the atoms of the concept's definition.
            let mut bare = p.clone();
            if let Some(l) = bare.segments.last_mut() {
                l.args = None;
            }
            match scopes::resolve_path(db, map, scope, &bare, Ns::Value) {
                Some(Def::VarTemplate(vt)) => {
                    let tree = item_tree_of(db, vt.item(db));
                    match tree.var_templates.get(vt.idx(db) as usize) {
                        Some(d) if d.concept => {
                            let inner_scope =
                                map.parent.get(&scopes::DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
                            1 + d
                                .var
                                .init
                                .as_ref()
                                .map_or(0, |i| atoms(db, map, vt.item(db), inner_scope, i, depth + 1))
                        }
                        _ => 1,
                    }
                }
                _ => 1,
            }
        }
        _ => {
            let _ = item;
            1
        }
    }
}

/// Whether `vt` is a concept (a concept-id names no variable).
pub(crate) fn is_concept(db: &dyn SourceDatabase, vt: crate::VarTemplateId) -> bool {
    item_tree_of(db, vt.item(db)).var_templates.get(vt.idx(db) as usize).is_some_and(|d| d.concept)
}
