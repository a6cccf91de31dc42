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
    let Some(t) = named_under_compounds(t) else { return false };
    let names: Vec<String> = params.iter().filter_map(|p| p.name.clone()).collect();
    !names.is_empty() && crate::symbols::dependent_member(db, map, scope, t, &names)
}

/// Whether the written parameter type `t` (under pointers, references, cv
/// and arrays) is certainly a non-deduced context ([temp.deduct.type]/5.1):
/// a qualified name whose nested-name-specifier names the function
/// template's parameters (`typename X<T>::type`), or an alias template whose
/// target is one (`type_identity_t<T>`, `typename type_identity<T>::type`).
/// The argument then deduces nothing: a parameter named only there takes
/// its explicit or default argument (ranges' `_Take::operator()(_Range&&,
/// type_identity_t<_Dp>)` with `_Dp = range_difference_t<_Range>`).
pub(super) fn certainly_non_deduced(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    t: &TypeRef,
    params: &[TemplateParam],
) -> bool {
    let names: Vec<String> = params.iter().filter_map(|p| p.name.clone()).collect();
    !names.is_empty() && qualified_by(db, map, scope, t, &names, 0)
}

fn qualified_by(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    t: &TypeRef,
    names: &[String],
    depth: u32,
) -> bool {
    use crate::item_tree::TemplateArgRef;
    let Some(TypeRef::Path(p)) = named_under_compounds(t) else { return false };
    let mentions = |a: &TemplateArgRef| match a {
        TemplateArgRef::Type(t) => {
            let mut v = Vec::new();
            crate::instances::typeref_names(t, &mut v);
            v.iter().any(|n| names.contains(n))
        }
        _ => false,
    };
    let n = p.segments.len();
    let qualifier_depends = p.segments[..n.saturating_sub(1)]
        .iter()
        .enumerate()
        .any(|(i, s)| (i == 0 && !p.global && names.contains(&s.name)) || s.args.iter().flatten().any(mentions));
    if qualifier_depends {
        return true;
    }
    // An alias template applied to the parameters, whose target is itself
    // qualified by the alias's own parameters.
    let Some(last) = p.segments.last() else { return false };
    if depth > 4 || !last.args.iter().flatten().any(mentions) {
        return false;
    }
    let mut bare = p.clone();
    for s in &mut bare.segments {
        s.args = None;
    }
    let Some(crate::scopes::Def::AliasTemplate(td)) =
        crate::scopes::resolve_path(db, map, scope, &bare, crate::scopes::Ns::Type)
    else {
        return false;
    };
    let tree = crate::item_tree_of(db, td.item(db));
    let Some(alias) = tree.typedefs.get(td.idx(db) as usize) else { return false };
    let own: Vec<String> = alias.tparams.iter().flatten().filter_map(|p| p.name.clone()).collect();
    !own.is_empty() && qualified_by(db, map, scope, &alias.ty, &own, depth + 1)
}

/// The named type under pointers, references, cv and arrays (`None` when
/// there is none: a function type, a builtin, an opaque type).
fn named_under_compounds(mut t: &TypeRef) -> Option<&TypeRef> {
    loop {
        match t {
            TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) | TypeRef::Array(x, _) => t = x,
            TypeRef::Path(_) => return Some(t),
            _ => return None,
        }
    }
}
