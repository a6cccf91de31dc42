//! Parameter packs in a function template's declared signature (spec 50
//! §8): while the signature is mangled, a pack parameter `Ts` is bound to a
//! one-element pack of its own placeholder (`T_k`), so that `X<Ts...>` and
//! `tuple<Ts*...>` lower to a pack argument whose element is the pattern;
//! after mangling, every element of a pack argument (`J…E`) that mentions a
//! pack parameter is marked as an expansion: `Dp <type>` for types,
//! `sp <expr>` for values (`integer_sequence<size_t, I...>` →
//! `JXspT0_EE`). A function parameter pack (`Ts&&... xs`) is lowered with
//! `Ts` bound to the element itself and wrapped in `Dp` by the caller.

use cufront_base_db::SourceDatabase;
use cufront_mangle as m;

use crate::item_tree::{TemplateParam, TemplateParamKind};
use crate::templates::{Env, TemplateArg, TemplateRef};
use crate::ty::{self, TyKind};

/// The placeholder of the `k`-th parameter of the signature being mangled.
pub(super) fn element(db: &dyn SourceDatabase, p: &TemplateParam, k: u32) -> TemplateArg {
    match p.kind {
        TemplateParamKind::Type => TemplateArg::Type(ty::mk(db, TyKind::TemplateParam { depth: 0, index: k })),
        TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: 0, index: k },
        TemplateParamKind::Template => TemplateArg::Template(TemplateRef::Param { depth: 0, index: k }),
    }
}

/// `env` with every pack parameter rebound to its element (for a function
/// parameter pack's declared type).
pub(super) fn element_env(db: &dyn SourceDatabase, env: &Env, tparams: &[TemplateParam]) -> Env {
    let mut e = env.clone();
    for (k, p) in tparams.iter().enumerate() {
        if let (true, Some(n)) = (p.pack, &p.name) {
            e.names.push((n.clone(), element(db, p, k as u32)));
        }
    }
    e
}

/// The indices of the pack parameters.
pub(super) fn pack_indices(tparams: &[TemplateParam]) -> Vec<u32> {
    tparams.iter().enumerate().filter(|(_, p)| p.pack).map(|(k, _)| k as u32).collect()
}

/// Marks the elements of pack arguments that mention a pack parameter as expansions.
pub(super) fn mark_type(t: &mut m::Type, packs: &[u32]) {
    if packs.is_empty() {
        return;
    }
    match t {
        m::Type::Named(n) => mark_name(n, packs),
        m::Type::Qualified(_, x)
        | m::Type::Ptr(x)
        | m::Type::LRef(x)
        | m::Type::RRef(x)
        | m::Type::Array(_, x)
        | m::Type::PackExpansion(x) => mark_type(x, packs),
        m::Type::Func(f) => {
            mark_fn(f, packs);
            // A function type's parameter naming a pack is an expansion (`PFvDpT_E`).
            for p in &mut f.params {
                if !matches!(p, m::Type::PackExpansion(_)) && type_mentions(p, packs, 0) {
                    let inner = std::mem::replace(p, m::Type::Builtin(m::Builtin::Void));
                    *p = m::Type::PackExpansion(Box::new(inner));
                }
            }
        }
        m::Type::MemPtr(a, b) => {
            mark_type(a, packs);
            mark_type(b, packs);
        }
        m::Type::ParamApp(_, args) => mark_args(args, packs),
        m::Type::Decltype(x) => mark_expr(x, packs),
        _ => {}
    }
}

/// `mark_type` through an expression: the types and template arguments
/// written in it (`sr …can_optimize_construct_atIT_JDpT0_EEE5value`, the
/// class of a qualified name in a dependent return type).
fn mark_expr(x: &mut m::Expr, packs: &[u32]) {
    match x {
        m::Expr::Unary(_, a) | m::Expr::SizeofExpr(a) | m::Expr::AlignofExpr(a) | m::Expr::Noexcept(a) => {
            mark_expr(a, packs)
        }
        m::Expr::Binary(_, a, b) => {
            mark_expr(a, packs);
            mark_expr(b, packs);
        }
        m::Expr::Cond(a, b, c) => {
            mark_expr(a, packs);
            mark_expr(b, packs);
            mark_expr(c, packs);
        }
        m::Expr::Call(f, args) => {
            mark_expr(f, packs);
            args.iter_mut().for_each(|a| mark_expr(a, packs));
        }
        m::Expr::Scoped { ty, args, .. } => {
            mark_type(ty, packs);
            if let Some(args) = args {
                mark_args(args, packs);
            }
        }
        m::Expr::Id(_, Some(args))
        | m::Expr::NsId { args: Some(args), .. }
        | m::Expr::Member { args: Some(args), .. } => mark_args(args, packs),
        m::Expr::VarTemplateId { template, args } => {
            mark_name(template, packs);
            mark_args(args, packs);
        }
        m::Expr::SizeofType(t) | m::Expr::AlignofType(t) => mark_type(t, packs),
        m::Expr::Cast(_, t, args) | m::Expr::Braced(t, args) => {
            mark_type(t, packs);
            args.iter_mut().for_each(|a| mark_expr(a, packs));
        }
        _ => {}
    }
}

pub(super) fn mark_fn(f: &mut m::FnType, packs: &[u32]) {
    mark_type(&mut f.ret, packs);
    for p in &mut f.params {
        mark_type(p, packs);
    }
}

fn mark_name(n: &mut m::Name, packs: &[u32]) {
    for c in &mut n.comps {
        if let Some(args) = &mut c.args {
            mark_args(args, packs);
        }
    }
}

fn mark_args(args: &mut [m::TArg], packs: &[u32]) {
    for a in args {
        match a {
            m::TArg::Type(t) => mark_type(t, packs),
            m::TArg::Pack(elems) => {
                for e in elems.iter_mut() {
                    mark_arg_elem(e, packs);
                }
            }
            m::TArg::Expr(x) => mark_expr(x, packs),
            _ => {}
        }
    }
}

fn mark_arg_elem(e: &mut m::TArg, packs: &[u32]) {
    match e {
        m::TArg::Type(t) => {
            mark_type(t, packs);
            if !matches!(t, m::Type::PackExpansion(_)) && type_mentions(t, packs, 0) {
                let inner = std::mem::replace(t, m::Type::Builtin(m::Builtin::Void));
                *t = m::Type::PackExpansion(Box::new(inner));
            }
        }
        m::TArg::Expr(x) if !matches!(x, m::Expr::PackExpansion(_)) && expr_mentions(x, packs) => {
            let inner = std::mem::replace(x, m::Expr::TParam(m::TParam(0)));
            *x = m::Expr::PackExpansion(Box::new(inner));
        }
        _ => {}
    }
}

fn type_mentions(t: &m::Type, packs: &[u32], depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let d = depth + 1;
    match t {
        m::Type::Param(p) => packs.contains(&p.0),
        m::Type::ParamApp(p, args) => packs.contains(&p.0) || args.iter().any(|a| arg_mentions(a, packs, d)),
        m::Type::Named(n) => name_mentions(n, packs, d),
        m::Type::Qualified(_, x) | m::Type::Ptr(x) | m::Type::LRef(x) | m::Type::RRef(x) | m::Type::Array(_, x) => {
            type_mentions(x, packs, d)
        }
        // An inner expansion expands its own packs.
        m::Type::PackExpansion(_) => false,
        m::Type::Func(f) => type_mentions(&f.ret, packs, d) || f.params.iter().any(|p| type_mentions(p, packs, d)),
        m::Type::MemPtr(a, b) => type_mentions(a, packs, d) || type_mentions(b, packs, d),
        _ => false,
    }
}

fn name_mentions(n: &m::Name, packs: &[u32], d: u32) -> bool {
    matches!(n.root, m::Root::Param(p) if packs.contains(&p.0))
        || n.comps.iter().any(|c| c.args.iter().flatten().any(|a| arg_mentions(a, packs, d)))
}

fn arg_mentions(a: &m::TArg, packs: &[u32], d: u32) -> bool {
    match a {
        m::TArg::Type(t) => type_mentions(t, packs, d),
        m::TArg::Expr(x) => expr_mentions(x, packs),
        // Elements of an inner pack are expansions of their own.
        _ => false,
    }
}

fn expr_mentions(x: &m::Expr, packs: &[u32]) -> bool {
    match x {
        m::Expr::TParam(p) => packs.contains(&p.0),
        m::Expr::Unary(_, a) => expr_mentions(a, packs),
        m::Expr::Binary(_, a, b) => expr_mentions(a, packs) || expr_mentions(b, packs),
        _ => false,
    }
}

/// A placeholder return type (`auto`, `decltype(auto)`, `const auto&`) as
/// a function template's signature spells it (`Da`, `Dc`, `RKDa`); None
/// when the written type has no placeholder.
pub(super) fn placeholder_ret(t: &crate::item_tree::TypeRef) -> Option<m::Type> {
    use crate::item_tree::TypeRef;
    Some(match t {
        TypeRef::Opaque(s) if s.trim() == "auto" => m::Type::Builtin(m::Builtin::Auto),
        TypeRef::Opaque(s) if s.replace(' ', "") == "decltype(auto)" => m::Type::Builtin(m::Builtin::DecltypeAuto),
        TypeRef::Ptr(x) => placeholder_ret(x)?.ptr(),
        TypeRef::LRef(x) => placeholder_ret(x)?.lref(),
        TypeRef::RRef(x) => placeholder_ret(x)?.rref(),
        TypeRef::Cv(x, cv) => placeholder_ret(x)?.qual(super::quals(*cv)),
        _ => return None,
    })
}
