//! A member template named through a type as a template template argument
//! (`_Fn::template __call`, libcu++'s type-list metafunctions:
//! `__type_call_indirect_fn<…>::__call<_Fn::template __call, _Ts...>`).
//! A member alias template of a class template specialization reads the
//! specialization's parameters (`__type_quote<F>::__call<Ts...>` is
//! `F<Ts...>`), so the argument keeps the specialization it was found in:
//! `TemplateRef::Member` (`TemplateRef::MemberClass` for a member class
//! template: thrust's `specialize_plan<Agent::template PtxPlan, SM>`).

use crate::item_tree::{Path, TypeRef};
use crate::scopes::{Def, Ns};
use crate::ty::{self, LowerCx, TyKind};

use super::{ClassRefT, TemplateArg, TemplateRef, canonical_template, class_of, member_of};

/// `X::template name` (two segments or more) as a template template
/// argument; None when the path is not of that form.
pub(super) fn arg(cx: LowerCx<'_>, p: &Path) -> Option<Result<TemplateArg, crate::SemaError>> {
    let db = cx.db;
    let (last, prefix) = p.segments.split_last()?;
    if prefix.is_empty() || last.args.is_some() {
        return None;
    }
    let qualifier = TypeRef::Path(Path { global: p.global, segments: prefix.to_vec() });
    let t = ty::canonical(db, ty::lower(cx, &qualifier));
    let class = match t.kind(db) {
        TyKind::App(_) | TyKind::Inst(_) | TyKind::Class(_) => match class_of(db, t) {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        },
        // The qualifier depends on a pattern's parameters: so does the template.
        TyKind::Dependent(s) => return Some(Ok(TemplateArg::Dependent(format!("{s}::template {}", last.name)))),
        TyKind::TemplateParam { .. } | TyKind::ParamApp { .. } => {
            return Some(Ok(TemplateArg::Dependent(format!("{p}"))));
        }
        _ => return None,
    };
    let (d, env, _) = member_of(db, class, &last.name, Ns::Type, 0)?;
    Some(match d {
        // A member class template of the specialization itself keeps it
        // (its own arguments are the outer ones of every application).
        Def::ClassTemplate(c) => match (class, env) {
            (ClassRefT::Inst(i), Some(e)) if e.args == super::inst_env(db, i).map(|x| x.args).unwrap_or_default() => {
                Ok(TemplateArg::Template(TemplateRef::MemberClass(i, canonical_template(cx.map, c))))
            }
            _ => Ok(TemplateArg::Template(TemplateRef::Class(canonical_template(cx.map, c)))),
        },
        // Declared in the specialization itself: read in it; found in a
        // base specialization: not kept (which one is not returned).
        Def::AliasTemplate(td) => match (class, env) {
            (_, None) => Ok(TemplateArg::Template(TemplateRef::Alias(td))),
            (ClassRefT::Inst(i), Some(e)) if e.args == super::inst_env(db, i).map(|x| x.args).unwrap_or_default() => {
                Ok(TemplateArg::Template(TemplateRef::Member(i, td)))
            }
            _ => Err(crate::error::gap!("`{p}`: a member alias template of a base")),
        },
        _ => Err(crate::error::gap!("`{p}` is not a template")),
    })
}
