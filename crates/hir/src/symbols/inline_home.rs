//! The namespace an out-of-line definition belongs to ([namespace.memdef]/2):
//! `std::string std::to_string(int) {…}` defines the `to_string` declared
//! in `inline namespace __cxx11`, so it is named there
//! (`_ZNSt7__cxx119to_stringB5cxx11Ei`), not in the namespace its qualifier
//! names. Qualified lookup of the declarator-id finds the declaration
//! through the inline namespaces of the qualifier's namespace.

use crate::scopes::{DefMap, ScopeIdx, ScopeKind};

/// Inline namespaces nested deeper than this are not searched.
const MAX_INLINE_DEPTH: u32 = 16;

/// The namespace whose declaration of `key` an out-of-line definition
/// qualified by namespace `ns` defines: `ns` itself when it declares
/// `key`, else the inline namespace (transitively) that does.
pub(super) fn inline_home(map: &DefMap, ns: ScopeIdx, key: &str) -> ScopeIdx {
    if map.scope(ns).names.contains_key(key) {
        return ns;
    }
    find(map, ns, key, 0).unwrap_or(ns)
}

fn find(map: &DefMap, ns: ScopeIdx, key: &str, depth: u32) -> Option<ScopeIdx> {
    if depth > MAX_INLINE_DEPTH {
        return None;
    }
    for &u in &map.scope(ns).usings {
        let inner = map.scope(u);
        if !matches!(inner.kind, ScopeKind::Namespace { inline: true, .. }) || inner.parent != Some(ns) {
            continue;
        }
        if inner.names.contains_key(key) {
            return Some(u);
        }
        if let Some(s) = find(map, u, key, depth + 1) {
            return Some(s);
        }
    }
    None
}
