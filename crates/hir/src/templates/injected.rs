//! The injected-class-name inside a partial specialization ([temp.local]):
//! `_Tuple_impl` written in `template<size_t I, class H, class... T>
//! struct _Tuple_impl<I, H, T...>` names the current specialization,
//! `_Tuple_impl<I, H, T...>`; in an instance of that partial specialization
//! it is the specialization's pattern with the instance's arguments
//! substituted (its arguments in the primary template's form).

use cufront_base_db::SourceDatabase;

use crate::scopes::DefMap;
use crate::ty::TyKind;
use crate::ClassId;

use super::{canonical_template, substituted_pattern, AppId, Env};

/// The current specialization of template `c` when `env` is an instance of
/// one of its partial specializations (top-level templates only).
pub(super) fn in_partial_specialization(db: &dyn SourceDatabase, map: &DefMap, c: ClassId, env: &Env) -> Option<TyKind> {
    if env.scopes.len() != 1 {
        return None;
    }
    let primary = canonical_template(map, c);
    let specs = map.specializations.get(&primary).or_else(|| map.specializations.get(&c))?;
    let s = specs.iter().find(|s| map.class_scope.get(s).is_some_and(|sc| env.scopes.first() == Some(sc)))?;
    let args = substituted_pattern(db, map, *s, &env.args).ok()?;
    Some(TyKind::App(AppId::new(db, primary, args)))
}
