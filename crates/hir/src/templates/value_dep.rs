//! Value-dependent template arguments ([temp.dep.constexpr]): an expression
//! that names a template parameter (directly, or inside a type it mentions:
//! `!is_lvalue_reference<_Del>::value`) has no value until the parameter is
//! known. Evaluating it with the parameter as a deduction placeholder gives
//! the primary template's answer for a type that is no type at all, so
//! `__enable_if_t<!is_lvalue_reference<_Del>::value, _Del&&>` would become
//! `_Del&&` and deduce `_Del` from the argument, where it is a non-deduced
//! context ([temp.deduct.type]/5) and `_Del` takes its default.

use crate::consteval::var_template;
use crate::item_tree::{ConstExpr, ConstPart, Path, TemplateArgRef, TypeRef};
use crate::templates::Env;
use cufront_base_db::SourceDatabase;

/// Whether `e` names a parameter that `env` binds to a placeholder (or to
/// anything still dependent).
pub(crate) fn is_value_dependent(db: &dyn SourceDatabase, env: &Env, e: &ConstExpr) -> bool {
    let mut names = Vec::new();
    expr_names(e, &mut names, 0);
    names.iter().any(|n| env.get(n).is_some_and(|a| var_template::dependent(db, a)))
}

/// The first-segment names an expression mentions, template arguments and
/// the types of casts, `sizeof` and traits included (bounded depth).
fn expr_names(e: &ConstExpr, out: &mut Vec<String>, depth: u32) {
    e.for_each_part(depth, 64, &mut |part, d| match part {
        ConstPart::Path(p) => path_names(p, out, d),
        ConstPart::Type(t) => type_names(t, out, d),
        ConstPart::Pack(n) => out.push(n.to_string()),
    });
}

fn path_names(p: &Path, out: &mut Vec<String>, depth: u32) {
    if let Some(s) = p.segments.first()
        && !p.global
    {
        out.push(s.name.clone());
    }
    for a in p.segments.iter().flat_map(|s| s.args.iter().flatten()) {
        arg_names(a, out, depth + 1);
    }
}

fn arg_names(a: &TemplateArgRef, out: &mut Vec<String>, depth: u32) {
    if depth > 64 {
        return;
    }
    match a {
        TemplateArgRef::Type(t) => type_names(t, out, depth + 1),
        TemplateArgRef::Expr(e) => expr_names(e, out, depth + 1),
        TemplateArgRef::Expansion(x) => arg_names(x, out, depth + 1),
    }
}

fn type_names(t: &TypeRef, out: &mut Vec<String>, depth: u32) {
    if depth > 64 {
        return;
    }
    match t {
        TypeRef::Path(p) => path_names(p, out, depth + 1),
        TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) | TypeRef::Complex(x) => {
            type_names(x, out, depth + 1)
        }
        TypeRef::Array(x, n) => {
            type_names(x, out, depth + 1);
            if let Some(n) = n {
                expr_names(n, out, depth + 1);
            }
        }
        TypeRef::MemPtr(p, x) => {
            path_names(p, out, depth + 1);
            type_names(x, out, depth + 1);
        }
        TypeRef::Func(f) => {
            type_names(&f.ret, out, depth + 1);
            f.params.iter().for_each(|p| type_names(p, out, depth + 1));
        }
        TypeRef::Builtin(_) | TypeRef::LocalClass(_) | TypeRef::LocalEnum(_) | TypeRef::Opaque(_) => {}
    }
}
