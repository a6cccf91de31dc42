//! Parameters that may be non-deduced contexts ([temp.deduct.type]/5.1:
//! the nested-name-specifier of a qualified-id, `typename X<T>::type`, or
//! an alias template expanding to one, `scalar_of_t<T>`). The lowering
//! evaluates such a member on the deduction placeholders (the primary
//! template's `type = T`), which is not what a later explicit or partial
//! specialization gives; so these parameters are deduced last and a
//! mismatch there does not fail deduction: the substituted signature is
//! checked against the arguments afterwards, as the standard does for a
//! non-deduced parameter.

use crate::item_tree::{TemplateParam, TypeRef};
use crate::scopes::{DefMap, ScopeIdx};
use cufront_base_db::SourceDatabase;

/// Whether the written parameter type `t` (under pointers, references,
/// cv and arrays) names a member of a template-id that depends on the
/// function template's parameters, or an alias template applied to them.
pub(super) fn maybe_non_deduced(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    t: &TypeRef,
    params: &[TemplateParam],
) -> bool {
    let mut t = t;
    loop {
        match t {
            TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) | TypeRef::Array(x, _) => t = x,
            TypeRef::Path(_) => break,
            _ => return false,
        }
    }
    let names: Vec<String> = params.iter().filter_map(|p| p.name.clone()).collect();
    !names.is_empty() && crate::symbols::dependent_member(db, map, scope, t, &names)
}
