//! Matching an out-of-line definition of a member function template to its
//! declaration when the two name their own template parameters differently
//! ([temp.over.link]/6: equivalence is positional, not by name).
//! libstdc++ declares `_M_construct(_InIterator, _InIterator,
//! input_iterator_tag)` and `_M_construct(_FwdIterator, _FwdIterator,
//! forward_iterator_tag)` in `basic_string` and defines both out of line
//! with `_InIterator`: only the tag tells the definitions apart.

use cufront_base_db::SourceDatabase;

use super::FnDecl;

/// Whether `a` and `b` write the same parameter types once each one's own
/// template parameters are replaced by their positions.
pub(crate) fn same_params_renamed(db: &dyn SourceDatabase, a: FnDecl, b: FnDecl) -> bool {
    let (Some(ad), Some(bd)) = (a.data(db), b.data(db)) else { return false };
    let (ap, bp) = (a.tparams(db), b.tparams(db));
    if ap.is_empty() || ap.len() != bp.len() || ad.ty.params.len() != bd.ty.params.len() {
        return false;
    }
    positional_text(format!("{:?}", ad.ty.params), &ap) == positional_text(format!("{:?}", bd.ty.params), &bp)
}

/// The debug form of written types or arguments with each of `params`
/// replaced by its position: the debug form quotes every name
/// (`name: "_Tp"`), so a quoted parameter name is replaced as a whole token.
pub(crate) fn positional_text(text: String, params: &[crate::item_tree::TemplateParam]) -> String {
    params.iter().enumerate().fold(text, |t, (i, p)| match &p.name {
        Some(n) => t.replace(&format!("{n:?}"), &format!("\"#{i}\"")),
        None => t,
    })
}

/// Whether two template heads can declare the same function template
/// ([temp.over.link]/6-7): parameter for parameter, the same kind (type,
/// value, template) and the same pack-ness. libstdc++ declares
/// `template<size_t _Np, typename... _Types> get(variant<_Types...>&)` and
/// defines `template<typename _Tp, typename... _Types> get(variant<_Types...>&)`
/// before the index overload's definition: the function parameters are
/// written alike, only the heads tell the two templates apart.
pub(crate) fn same_head_kinds(a: &[crate::item_tree::TemplateParam], b: &[crate::item_tree::TemplateParam]) -> bool {
    use crate::item_tree::TemplateParamKind as K;
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.pack == y.pack
                && matches!(
                    (&x.kind, &y.kind),
                    (K::Type, K::Type) | (K::Value(_), K::Value(_)) | (K::Template, K::Template)
                )
        })
}
