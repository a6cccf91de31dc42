//! The injected-class-name inside a partial specialization ([temp.local]):
//! `_Tuple_impl` written in `template<size_t I, class H, class... T>
//! struct _Tuple_impl<I, H, T...>` names the current specialization,
//! `_Tuple_impl<I, H, T...>`; in an instance of that partial specialization
//! it is the specialization's pattern with the instance's arguments
//! substituted (its arguments in the primary template's form).

use cufront_base_db::SourceDatabase;

use crate::ClassId;
use crate::scopes::DefMap;
use crate::ty::TyKind;

use super::{AppId, Env, canonical_template, substituted_pattern};

/// The current specialization of template `c` when `env` is an instance of
/// one of its partial specializations (top-level templates only).
pub(super) fn in_partial_specialization(
    db: &dyn SourceDatabase,
    map: &DefMap,
    c: ClassId,
    env: &Env,
) -> Option<TyKind> {
    if env.scopes.len() != 1 {
        return None;
    }
    let primary = canonical_template(map, c);
    let specs = map.specializations.get(&primary).or_else(|| map.specializations.get(&c))?;
    let s = specs.iter().find(|s| map.class_scope.get(s).is_some_and(|sc| env.scopes.first() == Some(sc)))?;
    let args = substituted_pattern(db, map, *s, &env.args).ok()?;
    Some(TyKind::App(AppId::new(db, primary, args)))
}

crate::consteval::var_template::recorded_query! {
    /// The template-id an explicit specialization `template<> class X<void>`
    /// is ([temp.expl.spec]): inside it, `*this` and its injected-class-name
    /// have the class type, which deduction must still see as `X<void>`
    /// (`promise<void>::set_value` deducing `promise<_Res>` from `this`).
    pub fn explicit_specialization_app(k: ClassId) -> Option<AppId> = explicit_specialization_app_of;
    tracked explicit_specialization_app_uses;
}

fn explicit_specialization_app_of(db: &dyn SourceDatabase, k: ClassId) -> Option<AppId> {
    let tree = crate::item_tree_of(db, k.item(db));
    let data = tree.classes.get(k.idx(db) as usize)?;
    if data.template != crate::item_tree::TemplateKind::Specialization
        || data.tparams.as_ref().is_some_and(|p| !p.is_empty())
    {
        return None;
    }
    let map = crate::scopes::def_map(db, k.tu(db));
    let primary = map.specializations.iter().find(|(_, v)| v.contains(&k)).map(|(p, _)| *p)?;
    let pattern = super::spec_pattern(db, k);
    let (n, args) = pattern.as_ref().as_ref().ok()?;
    if *n != 0 {
        return None;
    }
    Some(AppId::new(db, canonical_template(&map, primary), args.clone()))
}

crate::consteval::var_template::recorded_query! {
    /// The template-id an instance is, in the primary template's form: inside
    /// a member of `promise<vector<float>>`, `this` has the instance's type,
    /// which deduction must still see as `promise<vector<float>>`
    /// (`__setter(promise<_Res>*, …)` called with `this`). Instances of a
    /// primary template carry its arguments (outer levels first, as template-ids
    /// do); those of a top-level partial specialization are its pattern with
    /// their arguments substituted. Classes nested in a template are no
    /// template-id.
    pub fn inst_app(i: super::InstId) -> Option<AppId> = inst_app_of;
    tracked inst_app_uses;
}

fn inst_app_of(db: &dyn SourceDatabase, i: super::InstId) -> Option<AppId> {
    let k = i.class(db);
    let tree = crate::item_tree_of(db, k.item(db));
    let data = tree.classes.get(k.idx(db) as usize)?;
    let map = crate::scopes::def_map(db, k.tu(db));
    match data.template {
        crate::item_tree::TemplateKind::Primary => {
            Some(AppId::new(db, canonical_template(&map, k), i.args(db).clone()))
        }
        crate::item_tree::TemplateKind::Specialization => {
            let n_own = data.tparams.as_ref().map_or(0, Vec::len);
            if n_own != i.args(db).len() {
                return None;
            }
            let primary = map.specializations.iter().find(|(_, v)| v.contains(&k)).map(|(p, _)| *p)?;
            let args = substituted_pattern(db, &map, k, i.args(db)).ok()?;
            Some(AppId::new(db, canonical_template(&map, primary), args))
        }
        crate::item_tree::TemplateKind::None => None,
    }
}
