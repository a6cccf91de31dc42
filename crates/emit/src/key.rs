//! Linkage names of declared entities, and the module id's key: the first
//! eligible definition outside system headers (spec 30 §4.2).

use cufront_cuda::decl;
use cufront_cuda::spaces::{declarators, name_parts};
use cufront_cuda::walk::{self, Ctx};
use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{SyntaxKind as K, SyntaxNode};

use crate::items::{Items, LazyItems, Ty, scope_key};
use crate::mangle::{self, FnName};

/// The linkage name of the entity `declarator` declares in `ctx`: mangled,
/// or plain for C linkage and global-namespace variables.
pub fn linkage_name(
    items: &Items,
    specs: Option<&SyntaxNode>,
    declarator: &SyntaxNode,
    ctx: &Ctx,
) -> Result<String, String> {
    let name = decl::name_node(declarator).ok_or("no declarator name")?;
    let (quals, last) = name_parts(&name);
    let here = scope_key(&ctx.scope);
    let scope = items
        .qualified_scope(&here, &quals)
        .ok_or_else(|| format!("cannot resolve the qualifier of `{}`", name.text()))?;
    let path = items.scope_path(&scope);
    match decl::function_declarator(declarator) {
        Some(f) => {
            // `main` and C-linkage functions are not mangled.
            if (ctx.extern_c && quals.is_empty() && !ctx.in_class())
                || (path.is_empty() && last == "main")
            {
                return Ok(last);
            }
            let ret = match specs {
                Some(s) => items.specifier_type(s, &scope),
                None => Ty::Builtin("v"),
            };
            // The function's own type: apply the derivations after the function one.
            let fty = items.function_type(ret, &f, &scope);
            let fname = function_name(items, &name, &scope, &last)?;
            mangle::function(&path, &fname, &fty)
        }
        None => {
            if ctx.extern_c && quals.is_empty() {
                return Ok(last);
            }
            mangle::variable(&path, &last)
        }
    }
}

fn function_name(
    items: &Items,
    name: &SyntaxNode,
    scope: &Vec<String>,
    last: &str,
) -> Result<FnName, String> {
    let last_node = name
        .descendants()
        .filter(|n| {
            matches!(
                n.kind(),
                K::DESTRUCTOR_NAME
                    | K::OPERATOR_NAME
                    | K::CONVERSION_NAME
                    | K::LITERAL_OPERATOR_NAME
            )
        })
        .last();
    if let Some(n) = last_node {
        return Ok(match n.kind() {
            K::DESTRUCTOR_NAME => FnName::Dtor,
            K::CONVERSION_NAME => {
                let t = n
                    .children()
                    .find(|c| c.kind() == K::TYPE_ID)
                    .ok_or("conversion without a type")?;
                FnName::Conversion(items.type_id(&t, scope))
            }
            K::LITERAL_OPERATOR_NAME => {
                FnName::Literal(walk::identifiers(&n).last().cloned().unwrap_or_default())
            }
            _ => {
                let text = cufront_cuda::spaces::compact_text(&n);
                let op = text
                    .strip_prefix("operator")
                    .unwrap_or(&text)
                    .trim()
                    .replace(' ', "");
                FnName::Operator(op)
            }
        });
    }
    if scope.last().is_some_and(|c| c == last) {
        return Ok(FnName::Ctor);
    }
    Ok(FnName::Ident(last.to_string()))
}

fn keywords(specs: Option<&SyntaxNode>, kinds: &[K]) -> bool {
    decl::has_keyword(specs, kinds)
}

const INLINE: &[K] = &[K::INLINE_KW, K::INLINE2_KW, K::INLINE3_KW];

/// Whether default-initializing the variable whose declarator name starts
/// at an offset runs code (a non-trivial default constructor or destructor):
/// the semantic model's answer, `None` when it does not know.
pub type DefaultInitRunsCode<'a> = &'a dyn Fn(u32) -> Option<bool>;

/// Whether a declarator is not eligible as the key.
fn ineligible(
    items: &Items,
    node: &SyntaxNode,
    specs: Option<&SyntaxNode>,
    d: &SyntaxNode,
    ctx: &Ctx,
    runs_code: DefaultInitRunsCode<'_>,
) -> bool {
    if ctx.templated
        || ctx.specialization
        || ctx.instantiation
        || ctx.member
        || ctx.in_anonymous_namespace()
    {
        return true;
    }
    if keywords(
        specs,
        &[
            K::STATIC_KW,
            K::TYPEDEF_KW,
            K::CONSTEXPR_KW,
            K::CONSTEVAL_KW,
            K::FRIEND_KW,
        ],
    ) || keywords(specs, INLINE)
    {
        return true;
    }
    let Some(name) = decl::name_node(d) else {
        return true;
    };
    if name.descendants().any(|n| n.kind() == K::TEMPLATE_ID)
        && decl::function_declarator(d).is_some()
    {
        return true;
    }
    match decl::function_declarator(d) {
        Some(f) => {
            if node.kind() != K::FUNCTION_DEF {
                return true;
            }
            if node.children().any(|c| c.kind() == K::DELETED_BODY) {
                return true;
            }
            let trailing = f.children().any(|c| c.kind() == K::TRAILING_RETURN_TYPE);
            let auto = keywords(specs, &[K::AUTO_KW])
                || specs.is_some_and(|s| {
                    s.children().any(|c| {
                        c.kind() == K::DECLTYPE_SPECIFIER
                            && c.text().to_string().replace(' ', "") == "decltype(auto)"
                    })
                });
            auto && !trailing
        }
        None => {
            let init = d.parent().is_some_and(|i| {
                i.kind() == K::INIT_DECLARATOR
                    && i.children().any(|c| {
                        matches!(
                            c.kind(),
                            K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST
                        )
                    })
            });
            if node.kind() != K::SIMPLE_DECL {
                return true;
            }
            // A definition without an initializer counts when its default
            // initialization calls a non-trivial constructor or registers a
            // non-trivial destructor (`Image img;`): EDG gives it an
            // initializer then (found by differential testing).
            if !init
                && (keywords(specs, &[K::EXTERN_KW])
                    || runs_code(u32::from(name.text_range().start())) != Some(true))
            {
                return true;
            }
            if keywords(specs, &[K::AUTO_KW]) {
                return true;
            }
            // Namespace-scope const without `extern` has internal linkage.
            if !keywords(specs, &[K::EXTERN_KW]) {
                let scope = scope_key(&ctx.scope);
                let base = specs.map_or(Ty::Unknown(String::new()), |s| {
                    items.specifier_type(s, &scope)
                });
                if let Ty::Cv { c: true, .. } = items.declarator_type(base, d, &scope) {
                    return true;
                }
            }
            false
        }
    }
}

/// The key of the module id: the linkage name of the first eligible
/// definition outside system headers, or `None` when there is none.
/// `Err` when the first eligible entity cannot be mangled (yet).
///
/// With `--device-c`, cudafe++ fixes the id when host code first names an
/// entity whose host-reference entry carries the id (`__nv_static_<id>_`:
/// static or anonymous-namespace kernels and device variables, any
/// template kernel); an eligible definition must start before that point,
/// else the id is the fallback (found by differential testing, spec 30 §4.2).
pub fn module_key(
    root: &SyntaxNode,
    map: &SourceMap,
    device_c: bool,
    runs_code: DefaultInitRunsCode<'_>,
) -> Option<Result<String, String>> {
    // Only the names the candidates' types read are indexed.
    module_key_with(root, map, device_c, LazyItems::new(root), runs_code)
}

/// [`module_key`] from the index `items`.
pub(crate) fn module_key_with(
    root: &SyntaxNode,
    map: &SourceMap,
    device_c: bool,
    mut items: LazyItems<'_>,
    runs_code: DefaultInitRunsCode<'_>,
) -> Option<Result<String, String>> {
    let limit = if device_c {
        let index = cufront_cuda::SpaceIndex::build(root);
        crate::host::refs::Refs::build(root, &index).first_internal_host_ref(root, &index)
    } else {
        None
    };
    let mut found: Option<Result<String, String>> = None;
    let mut too_late = false;
    walk::walk(root, &mut |node, ctx| {
        if found.is_some() || too_late || !matches!(node.kind(), K::FUNCTION_DEF | K::SIMPLE_DECL) {
            return;
        }
        if limit.is_some_and(|l| u32::from(node.text_range().start()) > l) {
            too_late = true;
            return;
        }
        if map.flags_at(node.text_range().start().into()).system {
            return;
        }
        for (specs, d) in declarators(node) {
            if !items.query(|items| ineligible(items, node, specs.as_ref(), &d, ctx, runs_code)) {
                found = Some(items.query(|items| linkage_name(items, specs.as_ref(), &d, ctx)));
                return;
            }
        }
    });
    found
}
