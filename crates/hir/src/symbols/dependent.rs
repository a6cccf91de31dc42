//! Template-ids in a function template's signature whose value arguments
//! are expressions of the template's own parameters
//! (`typename enable_if<is_x<T>::value, int>::type`,
//! `disable_if<select_system1_exists<S>::value, S&>`): the lowering keeps
//! such an argument only as `TemplateArg::Dependent`, so it is mangled
//! here from what is written, as g++ does: `X <expression> E`, a member
//! of a dependent type as `sr <type> <name>` (g++ writes the qualifier as
//! a type: `sr4is_xIT_E5value`, `srNT_4typeE5value`), operators by their
//! codes, `sizeof(T)` as `st`, a functional or C-style cast as `cv`.
//! Arguments the template's defaults supply are lowered as usual.
//!
//! Never a guess: an expression shape not listed (a call, a trait builtin,
//! a non-dependent named constant, which g++ spells as `L_Z…E`) is an
//! error, so the function gets no name rather than a wrong one.

use cufront_mangle::{self as m, Component, Op};

use super::{mangle_ty, mangle_written_in, scope_name, targ};
use crate::item_tree::{BinOp, ConstExpr, Path, PathSegment, TemplateArgRef, TemplateParam, TypeRef, UnOp};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeKind};
use crate::templates::TemplateArg;
use crate::ty::{self, LowerCx, TyKind};
use crate::{ClassId, item_tree_of};
use cufront_base_db::SourceDatabase;

/// What the parameters of an alias template being expanded stand for when
/// their written arguments cannot be lowered faithfully (a dependent type,
/// an expression of the parameters): spelled where they are written
/// (`enable_if_t<is_x<T>::value, int>` → `_Bp` is `Xsr4is_xIT_E5valueE`).
pub(super) type Spelled = [(String, m::TArg)];

/// An alias parameter named alone, as a type.
pub(super) fn spelled_type(t: &TypeRef, sp: &Spelled) -> Option<m::Type> {
    let TypeRef::Path(p) = t else { return None };
    let [seg] = p.segments.as_slice() else { return None };
    if p.global || seg.args.is_some() {
        return None;
    }
    match sp.iter().find(|(n, _)| *n == seg.name)? {
        (_, m::TArg::Type(t)) => Some(t.clone()),
        _ => None,
    }
}

/// Whether a written type names a spelled alias parameter.
pub(super) fn type_mentions_spelled(t: &TypeRef, sp: &Spelled) -> bool {
    if sp.is_empty() {
        return false;
    }
    let names: Vec<String> = sp.iter().map(|(n, _)| n.clone()).collect();
    type_mentions(t, &names)
}

/// The alias parameters whose written arguments are spelled (see
/// [`Spelled`]); `bound` are the lowered arguments, one per parameter.
/// Only one-to-one bindings (no packs): otherwise nothing is spelled and
/// the lowering decides, as before.
#[allow(clippy::too_many_arguments)]
pub(super) fn spell_alias_args(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    params: &[TemplateParam],
    bound: &[TemplateArg],
    written: &[TemplateArgRef],
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<Vec<(String, m::TArg)>, crate::SemaError> {
    let mut out = Vec::new();
    if params.iter().any(|p| p.pack) || written.iter().any(|w| matches!(w, TemplateArgRef::Expansion(_))) {
        return Ok(out);
    }
    for ((p, a), w) in params.iter().zip(bound).zip(written) {
        let Some(n) = &p.name else { continue };
        let spelled = match w {
            // A member of a type depending on the parameters stays a
            // dependent name even where the lowering resolves it.
            TemplateArgRef::Type(t)
                if matches!(a, TemplateArg::Dependent(_))
                    || type_mentions_spelled(t, sp)
                    || super::dependent_member(db, map, cx.scope, t, names) =>
            {
                m::TArg::Type(mangle_written_in(db, map, cx, t, names, sp, depth + 1)?)
            }
            TemplateArgRef::Expr(e) if dependent_arg(a, w, names, sp) => {
                expr_arg(const_expr(db, map, cx, e, names, sp, depth + 1)?)
            }
            _ => continue,
        };
        out.push((n.clone(), spelled));
    }
    Ok(out)
}

/// A member named after a dependent prefix: `x`, or `template y<A…>`
/// (libcu++'s `_IfImpl<C>::template _Select<A, B>`).
pub(super) fn member_comp(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    seg: &PathSegment,
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<Component, crate::SemaError> {
    let Some(args) = &seg.args else { return Ok(m::build::comp(&seg.name)) };
    let args = written_args(db, map, cx, args, names, sp, depth)?;
    Ok(Component { name: m::Unqualified::Source(seg.name.clone()), abi_tags: Vec::new(), args: Some(args) })
}

/// Template arguments as written, without a template to normalise them
/// against (a member template of a dependent type, a variable template
/// in an expression): types spelled, expressions of the parameters
/// spelled, other expressions evaluated.
fn written_args(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    args: &[TemplateArgRef],
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<Vec<m::TArg>, crate::SemaError> {
    args.iter()
        .map(|a| match a {
            TemplateArgRef::Type(t) => Ok(m::TArg::Type(mangle_written_in(db, map, cx, t, names, sp, depth + 1)?)),
            TemplateArgRef::Expr(e) if expr_mentions(e, names) => {
                Ok(expr_arg(const_expr(db, map, cx, e, names, sp, depth + 1)?))
            }
            TemplateArgRef::Expr(e) => {
                let v = crate::consteval::eval(&crate::consteval::EvalCx::new(cx), e)
                    .map_err(|e| format!("template argument: {e}"))?;
                Ok(m::TArg::Literal(m::Literal {
                    ty: mangle_ty(db, map, ty::mk(db, TyKind::Builtin(v.ty)))?,
                    negative: v.v < 0,
                    magnitude: v.v.unsigned_abs(),
                }))
            }
            // `is_invocable_r_v<_Res, _Callable, _Args...>`: a type pack
            // expanded in place is `Dp <pattern>` (`IT_T0_DpT1_E`).
            TemplateArgRef::Expansion(x) => match &**x {
                TemplateArgRef::Type(t) => {
                    // The signature's packs are one-element packs of their
                    // placeholder (`symbols/packs.rs`): the pattern is
                    // spelled with each bound to that element.
                    let mut env = cx.env.cloned().unwrap_or_default();
                    let elems: Vec<(String, TemplateArg)> = env
                        .names
                        .iter()
                        .filter_map(|(n, a)| match a {
                            TemplateArg::Pack(v) if v.len() == 1 && is_placeholder(db, &v[0]) => {
                                Some((n.clone(), v[0].clone()))
                            }
                            _ => None,
                        })
                        .collect();
                    env.names.extend(elems);
                    let ecx = LowerCx { env: Some(&env), ..cx };
                    Ok(m::TArg::Type(m::Type::PackExpansion(Box::new(mangle_written_in(
                        db,
                        map,
                        ecx,
                        t,
                        names,
                        sp,
                        depth + 1,
                    )?))))
                }
                _ => Err("a pack expansion in a dependent template-id".into()),
            },
        })
        .collect()
}

/// A signature placeholder: a template parameter of the template being
/// mangled (depth 0).
fn is_placeholder(db: &dyn SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Type(t) => matches!(t.kind(db), TyKind::TemplateParam { depth: 0, .. }),
        TemplateArg::ValueParam { depth: 0, .. } => true,
        _ => false,
    }
}

fn expr_arg(e: m::Expr) -> m::TArg {
    match e {
        m::Expr::Literal(l) => m::TArg::Literal(l),
        e => m::TArg::Expr(e),
    }
}

/// The name of `template<written>` where some value argument depends on
/// the template's parameters (`names`). Only a namespace-scope template
/// (no outer arguments) and arguments bound one to one (no packs).
pub(super) fn template_id(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    template: ClassId,
    written: &[TemplateArgRef],
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<m::Name, crate::SemaError> {
    let template = map.template_def.get(&template).copied().unwrap_or(template);
    let parent = map.parent.get(&DeclKey::Class(template)).copied().unwrap_or(scopes::ROOT);
    if matches!(map.scope(parent).kind, ScopeKind::Class(_)) && map.templated.contains(&parent) {
        return Err("a dependent member template of a class template".into());
    }
    let tree = item_tree_of(db, template.item(db));
    let data = tree.classes.get(template.idx(db) as usize).ok_or("no such class")?;
    let own = data.name.clone().ok_or("unnamed template")?;
    let params = data.tparams.clone().unwrap_or_default();
    // Expansions only where the template's pack takes them (`tuple<typename
    // X<Ts>::type...>`): spelled there, below.
    let pack_at = params.iter().position(|p| p.pack);
    if written
        .iter()
        .enumerate()
        .any(|(i, w)| matches!(w, TemplateArgRef::Expansion(_)) && pack_at.is_none_or(|k| i < k))
    {
        return Err("a pack expansion in a dependent template-id".into());
    }
    let args = crate::templates::normalize_class_args(cx, template, Vec::new(), written)?;
    let mut out = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let rest = written.get(i..).unwrap_or(&[]);
        if pack_at == Some(i)
            && (has_dependent_element(db, a) || rest.iter().any(|w| written_member_arg(db, map, cx.scope, w, names)))
        {
            out.push(m::TArg::Pack(pack_elements(db, map, cx, written.get(i..).unwrap_or(&[]), names, sp, depth)?));
            continue;
        }
        let mangled = match (a, written.get(i)) {
            (_, Some(w))
                if (dependent_arg(a, w, names, sp) || written_member_arg(db, map, cx.scope, w, names))
                    && !params.get(i).is_some_and(|p| p.pack) =>
            {
                match w {
                    TemplateArgRef::Type(t) => m::TArg::Type(mangle_written_in(db, map, cx, t, names, sp, depth + 1)?),
                    TemplateArgRef::Expr(e) => expr_arg(const_expr(db, map, cx, e, names, sp, depth + 1)?),
                    TemplateArgRef::Expansion(_) => return Err("a pack expansion in a dependent template-id".into()),
                }
            }
            // A default argument that depends on the arguments before it
            // (`template <class It, bool C = is_contiguous_iterator_v<It>>`):
            // g++ spells the default's expression with those arguments.
            (TemplateArg::Dependent(s), None) => match params.get(i).and_then(|p| p.default.as_ref()) {
                Some(TemplateArgRef::Expr(e)) => {
                    let own_names: Vec<String> = params.iter().filter_map(|p| p.name.clone()).collect();
                    let spelled: Vec<(String, m::TArg)> =
                        params.iter().zip(out.iter()).filter_map(|(p, a)| Some((p.name.clone()?, a.clone()))).collect();
                    let scope = map.class_scope.get(&template).copied().unwrap_or(parent);
                    let dcx = LowerCx { db, map, item: template.item(db), scope, env: None };
                    expr_arg(const_expr(db, map, dcx, e, &own_names, &spelled, depth + 1)?)
                }
                _ => return Err(crate::error::gap!("dependent default argument `{s}`")),
            },
            (TemplateArg::Dependent(s), _) => return Err(crate::error::gap!("dependent default argument `{s}`")),
            _ => targ(db, map, a, &mut super::Budget::default())?,
        };
        out.push(mangled);
    }
    let mut n = scope_name(db, map, parent, &mut super::Budget::default())?;
    n.comps.push(Component { name: m::Unqualified::Source(own), abi_tags: Vec::new(), args: Some(out) });
    Ok(n)
}

/// Whether a written argument is (or expands) a member of a type that
/// depends on the parameters (`typename X<T>::type`, `shared_ptr<typename
/// enable_if<!is_array<_Tp>::value, _Tp>::type>`, or an alias to one:
/// `shared_ptr<_NonArray<_Tp>>`): a dependent name, which g++ spells as
/// written even where the lowering resolves it on the placeholders (the
/// primary `is_array` says `false`).
pub(super) fn written_member_arg(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: crate::scopes::ScopeIdx,
    w: &TemplateArgRef,
    names: &[String],
) -> bool {
    match w {
        TemplateArgRef::Type(t) => super::dependent_member(db, map, scope, t, names),
        TemplateArgRef::Expansion(x) => written_member_arg(db, map, scope, x, names),
        TemplateArgRef::Expr(_) => false,
    }
}

/// Whether a pack argument has an element the lowering leaves dependent.
pub(super) fn has_dependent_element(db: &dyn SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Dependent(_) => true,
        TemplateArg::Type(t) => matches!(t.kind(db), TyKind::Dependent(_)),
        TemplateArg::Pack(v) => v.iter().any(|x| has_dependent_element(db, x)),
        _ => false,
    }
}

/// The written arguments a template's pack parameter takes, spelled: an
/// expansion's pattern with each pack of the signature bound to its
/// element (`T_k`), which `packs::mark_fn` then marks `Dp`.
fn pack_elements(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    written: &[TemplateArgRef],
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<Vec<m::TArg>, crate::SemaError> {
    let mut env = cx.env.cloned().unwrap_or_default();
    let elems: Vec<(String, TemplateArg)> = env
        .names
        .iter()
        .filter_map(|(n, a)| match a {
            TemplateArg::Pack(v) if v.len() == 1 => Some((n.clone(), v[0].clone())),
            _ => None,
        })
        .collect();
    env.names.extend(elems);
    let ecx = LowerCx { env: Some(&env), ..cx };
    written
        .iter()
        .map(|w| match w {
            TemplateArgRef::Expansion(x) => match &**x {
                TemplateArgRef::Type(t) => Ok(m::TArg::Type(mangle_written_in(db, map, ecx, t, names, sp, depth + 1)?)),
                _ => Err("a value pack expansion in a dependent template-id".into()),
            },
            TemplateArgRef::Type(t) => Ok(m::TArg::Type(mangle_written_in(db, map, cx, t, names, sp, depth + 1)?)),
            TemplateArgRef::Expr(_) => Err("a value in a dependent template-id's pack".into()),
        })
        .collect()
}

/// Whether the written argument `w` (normalised to `a`) is spelled as
/// written: a type the lowering leaves dependent, or an expression of the
/// parameters (even one the lowering managed to evaluate).
fn dependent_arg(a: &TemplateArg, w: &TemplateArgRef, names: &[String], sp: &Spelled) -> bool {
    match w {
        TemplateArgRef::Expr(e) if alone(e, sp) => matches!(a, TemplateArg::Dependent(_)),
        TemplateArgRef::Expr(e) => expr_mentions(e, names) && !matches!(a, TemplateArg::ValueParam { .. }),
        // A type naming a spelled alias parameter: spelled as that parameter's argument was.
        TemplateArgRef::Type(t) if type_mentions_spelled(t, sp) => true,
        _ => matches!(a, TemplateArg::Dependent(_)),
    }
}

/// Whether a written template-id has a value argument that is an
/// expression of the parameters (and so is spelled by [`template_id`]).
/// A parameter named alone (`X<N>`) lowers as itself.
/// An alias parameter spelled (`_Bp` of `enable_if_t`) counts.
pub(super) fn has_dependent_value_arg(args: &[TemplateArgRef], names: &[String], sp: &Spelled) -> bool {
    args.iter().any(|a| matches!(a, TemplateArgRef::Expr(e) if expr_mentions(e, names) && !alone(e, sp)))
}

/// A name alone that is not a spelled alias parameter: lowered as itself.
fn alone(e: &ConstExpr, sp: &Spelled) -> bool {
    matches!(e, ConstExpr::Path(p) if p.segments.len() == 1 && p.segments[0].args.is_none() && !sp.iter().any(|(n, _)| *n == p.segments[0].name))
}

/// A constant expression written in a signature, mangled as an expression.
pub(super) fn const_expr(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    e: &ConstExpr,
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<m::Expr, crate::SemaError> {
    if depth > 32 {
        return Err("expression too deep".into());
    }
    let sub = |x: &ConstExpr| const_expr(db, map, cx, x, names, sp, depth + 1).map(Box::new);
    Ok(match e {
        ConstExpr::Int(v, b) => m::Expr::Literal(m::Literal {
            ty: mangle_ty(db, map, ty::mk(db, TyKind::Builtin(*b)))?,
            negative: false,
            magnitude: *v,
        }),
        ConstExpr::Path(p) => path_expr(db, map, cx, p, names, sp, depth)?,
        ConstExpr::Unary(op, x) => m::Expr::Unary(
            match op {
                UnOp::Neg => Op::Neg,
                UnOp::Plus => Op::Pos,
                UnOp::Not => Op::Not,
                UnOp::BitNot => Op::Compl,
            },
            sub(x)?,
        ),
        ConstExpr::Binary(op, a, b) => m::Expr::Binary(bin_op(*op), sub(a)?, sub(b)?),
        ConstExpr::Cond(a, b, c) => m::Expr::Cond(sub(a)?, sub(b)?, sub(c)?),
        ConstExpr::Cast(t, x) => m::Expr::Cast(
            m::CastKind::Functional,
            Box::new(written_ty(db, map, cx, t, names, sp, depth)?),
            vec![*sub(x)?],
        ),
        ConstExpr::SizeofType(t) => m::Expr::SizeofType(Box::new(written_ty(db, map, cx, t, names, sp, depth)?)),
        ConstExpr::AlignofType(t) => m::Expr::AlignofType(Box::new(written_ty(db, map, cx, t, names, sp, depth)?)),
        ConstExpr::Unsupported(text) => super::decltype_ret::written_expr(db, map, cx, text, names)?,
        ConstExpr::SizeofPack(_) | ConstExpr::Trait(..) => {
            return Err("an expression the model does not mangle".into());
        }
    })
}

fn written_ty(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    t: &TypeRef,
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<m::Type, crate::SemaError> {
    mangle_written_in(db, map, cx, t, names, sp, depth + 1)
}

/// A name in an expression: a value parameter (`T_`), a spelled alias
/// parameter, a variable template specialization (g++ writes it
/// unqualified: `16is_convertible_vIT_T0_E`), or a member of a dependent
/// type (`T::value`, `is_x<T>::value`: `sr <type> <name>`).
fn path_expr(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    p: &Path,
    names: &[String],
    sp: &Spelled,
    depth: u32,
) -> Result<m::Expr, crate::SemaError> {
    let last = p.segments.last().ok_or("empty path")?;
    if p.segments.len() == 1 && !p.global && last.args.is_none() {
        if let Some((_, a)) = sp.iter().find(|(n, _)| *n == last.name) {
            return match a {
                m::TArg::Expr(e) => Ok(e.clone()),
                m::TArg::Literal(l) => Ok(m::Expr::Literal(l.clone())),
                _ => Err(crate::error::gap!("type `{}` in an expression", last.name)),
            };
        }
        return match cx.env.and_then(|e| e.get(&last.name)) {
            Some(TemplateArg::ValueParam { depth: 0, index }) => Ok(m::Expr::TParam(m::TParam(*index))),
            Some(TemplateArg::Value(v, t)) => Ok(m::Expr::Literal(m::Literal {
                ty: mangle_ty(db, map, *t)?,
                negative: *v < 0,
                magnitude: v.unsigned_abs(),
            })),
            _ => Err(crate::error::gap!("`{}` in a dependent expression", last.name)),
        };
    }
    if let Some(args) = &last.args {
        let mut bare = p.clone();
        for s in &mut bare.segments {
            s.args = None;
        }
        if p.segments[..p.segments.len() - 1].iter().all(|s| s.args.is_none())
            && let Some(Def::VarTemplate(v)) = scopes::resolve_path(db, map, cx.scope, &bare, Ns::Value)
        {
            let args = written_args(db, map, cx, args, names, sp, depth)?;
            // The template's qualified name, for EDG's spelling; g++'s needs
            // only the written name (a member of a class template has no
            // name of its own here: g++'s form then).
            let parent = map.parent.get(&DeclKey::VarTemplate(v)).copied().unwrap_or(scopes::ROOT);
            return Ok(match scope_name(db, map, parent, &mut super::Budget::default()) {
                Ok(mut template) => {
                    template.comps.push(m::build::comp(&last.name));
                    m::Expr::VarTemplateId { template, args }
                }
                Err(_) => m::Expr::Id(last.name.clone(), Some(args)),
            });
        }
        return Err("a dependent member template in an expression".into());
    }
    let prefix = Path { global: p.global, segments: p.segments[..p.segments.len() - 1].to_vec() };
    let mut v = Vec::new();
    let qualifier = TypeRef::Path(prefix);
    crate::instances::typeref_names(&qualifier, &mut v);
    if !v.iter().any(|n| names.contains(n)) {
        return Err("a non-dependent name in a dependent expression".into());
    }
    let ty = mangle_written_in(db, map, cx, &qualifier, names, sp, depth + 1)?;
    Ok(m::Expr::Scoped { ty: Box::new(ty), name: last.name.clone(), args: None })
}

fn bin_op(op: BinOp) -> Op {
    match op {
        BinOp::Add => Op::Plus,
        BinOp::Sub => Op::Minus,
        BinOp::Mul => Op::Mul,
        BinOp::Div => Op::Div,
        BinOp::Rem => Op::Rem,
        BinOp::Shl => Op::Shl,
        BinOp::Shr => Op::Shr,
        BinOp::BitAnd => Op::And,
        BinOp::BitOr => Op::Or,
        BinOp::BitXor => Op::Xor,
        BinOp::And => Op::AndAnd,
        BinOp::Or => Op::OrOr,
        BinOp::Eq => Op::Eq,
        BinOp::Ne => Op::Ne,
        BinOp::Lt => Op::Lt,
        BinOp::Le => Op::Le,
        BinOp::Gt => Op::Gt,
        BinOp::Ge => Op::Ge,
    }
}

/// Whether a written expression names one of `names` (the template's own
/// parameters): decided on what is written, not by trying to evaluate —
/// `is_x<T>::value` is value-dependent even where every `is_x` says `true`.
pub(super) fn expr_mentions(e: &ConstExpr, names: &[String]) -> bool {
    match e {
        ConstExpr::Int(..) => false,
        ConstExpr::Path(p) => path_mentions(p, names),
        ConstExpr::Unary(_, x) => expr_mentions(x, names),
        ConstExpr::Binary(_, a, b) => expr_mentions(a, names) || expr_mentions(b, names),
        ConstExpr::Cond(a, b, c) => expr_mentions(a, names) || expr_mentions(b, names) || expr_mentions(c, names),
        ConstExpr::Cast(t, x) => type_mentions(t, names) || expr_mentions(x, names),
        ConstExpr::SizeofType(t) | ConstExpr::AlignofType(t) => type_mentions(t, names),
        ConstExpr::Trait(_, tys) => tys.iter().any(|t| type_mentions(t, names)),
        ConstExpr::SizeofPack(n) => names.contains(n),
        ConstExpr::Unsupported(text) => crate::type_tokens(text).iter().any(|t| names.contains(t)),
    }
}

fn path_mentions(p: &Path, names: &[String]) -> bool {
    let first = p.segments.first().is_some_and(|s| !p.global && names.contains(&s.name));
    first || p.segments.iter().flat_map(|s| s.args.iter().flatten()).any(|a| arg_mentions(a, names))
}

fn arg_mentions(a: &TemplateArgRef, names: &[String]) -> bool {
    match a {
        TemplateArgRef::Type(t) => type_mentions(t, names),
        TemplateArgRef::Expr(e) => expr_mentions(e, names),
        TemplateArgRef::Expansion(x) => arg_mentions(x, names),
    }
}

fn type_mentions(t: &TypeRef, names: &[String]) -> bool {
    let mut v = Vec::new();
    crate::instances::typeref_names(t, &mut v);
    v.iter().any(|n| names.contains(n)) || matches!(t, TypeRef::Path(p) if path_mentions(p, names))
}
