//! Template template parameters applied to arguments (`Ptr<T, Tail...>`
//! where `Ptr` is a `template <typename, typename...> class` parameter):
//! the `TyKind::ParamApp` a pattern lowers to, and its deduction against a
//! template-id ([temp.deduct.type]/8: `TT<T>` deduces `TT` and `T`).
//!
//! The parameter's own parameter list is not kept by the item tree, so the
//! written arguments are lowered by their form (types, values, pack
//! expansions); once the parameter is bound to a class template the usual
//! `apply` normalises them against the real parameters, which is what the
//! substitution check of `select` compares.

use cufront_base_db::SourceDatabase;

use crate::item_tree::{ConstExpr, TemplateArgRef, TypeRef};
use crate::scopes::{self, DeclKey};
use crate::templates::{self, TemplateArg, TemplateRef};
use crate::ty::{self, LowerCx, TyId, TyKind, mk};

/// `P<args>` for the template template parameter at (`depth`, `index`), or
/// `None` when an argument cannot be lowered.
pub(crate) fn param_app(cx: LowerCx<'_>, depth: u32, index: u32, written: &[TemplateArgRef]) -> Option<TyId> {
    let db = cx.db;
    let mut args = Vec::new();
    for w in written {
        match w {
            TemplateArgRef::Expansion(x) => args.extend(templates::expand(cx, x).ok()?),
            TemplateArgRef::Type(t) => args.push(templates::type_arg(cx, t)),
            TemplateArgRef::Expr(e @ ConstExpr::Path(p)) => {
                let t = ty::canonical(db, ty::lower(cx, &TypeRef::Path(p.clone())));
                if matches!(t.kind(db), TyKind::Error(_)) {
                    args.push(templates::value_arg(cx, e, None).ok()?);
                } else {
                    args.push(templates::type_arg(cx, &TypeRef::Path(p.clone())));
                }
            }
            TemplateArgRef::Expr(e) => args.push(templates::value_arg(cx, e, None).ok()?),
        }
    }
    Some(mk(db, TyKind::ParamApp { depth, index, args }))
}

/// Deduces `P<pattern args>` (P the parameter `index` of `depth`) from the
/// type `a`: a template-id of a namespace-scope class template binds `P` to
/// the template and the pattern's arguments to its arguments (defaults
/// included, as they are part of the type).
pub(crate) fn match_param_app(
    db: &dyn SourceDatabase,
    index: u32,
    pattern: &[TemplateArg],
    a: TyId,
    depth: u32,
    out: &mut [Option<TemplateArg>],
) -> bool {
    match ty::canonical(db, a).kind(db) {
        TyKind::App(app) => {
            let template = app.template(db);
            let map = crate::def_map(db, template.tu(db));
            let parent = map.parent.get(&DeclKey::Class(template)).copied().unwrap_or(scopes::ROOT);
            if templates::outer_arity(db, &map, parent) != 0 {
                return false;
            }
            templates::bind_slot(out, index, TemplateArg::Template(TemplateRef::Class(template)))
                && templates::deduce_into(db, pattern, app.args(db), depth, out)
        }
        TyKind::ParamApp { depth: d, index: i, args } if *d != depth => {
            templates::bind_slot(out, index, TemplateArg::Template(TemplateRef::Param { depth: *d, index: *i }))
                && templates::deduce_into(db, pattern, args, depth, out)
        }
        _ => false,
    }
}
