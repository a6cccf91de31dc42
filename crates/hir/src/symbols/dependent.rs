//! Template-ids in a function template's declared signature whose value
//! arguments are expressions depending on the template's own parameters:
//! `enable_if<__and_<is_x<T>, is_y<T>>::value>::type` is mangled as
//! written, `N St9enable_if I X sr St6__and_ IJ…E E 5value E v E 4type E`
//! (Itanium 5.1.5.7 `X <expression> E`, `sr <unresolved-type> <name>`),
//! with omitted arguments taken from the template's defaults.
//!
//! The model lowers such an argument to `TemplateArg::Dependent` (no value
//! yet), so these names are built from the written arguments instead.

use super::*;
use crate::item_tree::{BinOp, ConstExpr, TemplateArgRef, TemplateParamKind, TypeRef, UnOp};

/// `template<written>` as a name, each argument mangled as written.
pub(super) fn template_id(db: &dyn SourceDatabase, map: &DefMap, cx: ty::LowerCx<'_>, template: ClassId, written: &[TemplateArgRef], names: &[String], depth: u32) -> Result<m::Name, String> {
    let template = map.template_def.get(&template).copied().unwrap_or(template);
    let parent = map.parent.get(&DeclKey::Class(template)).copied().unwrap_or(scopes::ROOT);
    if map.templated.contains(&parent) {
        return Err("a member template of a dependent class".into());
    }
    let tree = item_tree_of(db, template.item(db));
    let data = tree.classes.get(template.idx(db) as usize).ok_or("no such class")?;
    let own = data.name.clone().ok_or("unnamed template")?;
    let params = data.tparams.clone().unwrap_or_default();
    let mut args = Vec::new();
    for (k, prm) in params.iter().enumerate() {
        if prm.pack {
            let rest = written.get(k..).unwrap_or_default();
            let elems = rest.iter().map(|a| arg(db, map, cx, &prm.kind, a, names, depth)).collect::<Result<Vec<_>, _>>()?;
            args.push(m::TArg::Pack(elems));
            break;
        }
        match written.get(k) {
            Some(a) => args.push(arg(db, map, cx, &prm.kind, a, names, depth)?),
            None => {
                // A default: only those that do not refer to earlier parameters.
                let d = prm.default.as_ref().ok_or("too few template arguments")?;
                let earlier: Vec<String> = params[..k].iter().filter_map(|p| p.name.clone()).collect();
                if arg_mentions(d, &earlier) {
                    return Err("a default argument depending on earlier parameters".into());
                }
                let dcx = ty::LowerCx { db, map, item: template.item(db), scope: parent, env: None };
                let lowered = crate::templates::lower_arg(dcx, &prm.kind, d)?;
                args.push(targ(db, map, &lowered)?);
            }
        }
    }
    let mut n = scope_name(db, map, parent)?;
    n.comps.push(Component { name: Unqualified::Source(own), abi_tags: Vec::new(), args: Some(args) });
    Ok(n)
}

fn arg_mentions(a: &TemplateArgRef, names: &[String]) -> bool {
    match a {
        TemplateArgRef::Type(t) => {
            let mut v = Vec::new();
            crate::instances::typeref_names(t, &mut v);
            v.iter().any(|n| names.contains(n))
        }
        TemplateArgRef::Expr(e) => expr_mentions(e, names),
        TemplateArgRef::Expansion(x) => arg_mentions(x, names),
    }
}

/// One written argument for a parameter of kind `kind`.
fn arg(db: &dyn SourceDatabase, map: &DefMap, cx: ty::LowerCx<'_>, kind: &TemplateParamKind, a: &TemplateArgRef, names: &[String], depth: u32) -> Result<m::TArg, String> {
    match (kind, a) {
        (TemplateParamKind::Type, TemplateArgRef::Type(t)) => Ok(m::TArg::Type(mangle_written(db, map, cx, t, names, depth + 1)?)),
        (TemplateParamKind::Type, TemplateArgRef::Expr(ConstExpr::Path(p))) => {
            Ok(m::TArg::Type(mangle_written(db, map, cx, &TypeRef::Path(p.clone()), names, depth + 1)?))
        }
        (TemplateParamKind::Value(_), TemplateArgRef::Expr(e)) if expr_mentions(e, names) => Ok(m::TArg::Expr(expr(db, map, cx, e, names, depth)?)),
        (TemplateParamKind::Value(_), TemplateArgRef::Type(TypeRef::Path(p))) if expr_mentions(&ConstExpr::Path(p.clone()), names) => {
            Ok(m::TArg::Expr(expr(db, map, cx, &ConstExpr::Path(p.clone()), names, depth)?))
        }
        (_, TemplateArgRef::Expansion(_)) => Err("a pack expansion in a dependent template-id".into()),
        _ => {
            let lowered = crate::templates::lower_arg(cx, kind, a)?;
            if matches!(lowered, TemplateArg::Dependent(_)) {
                return Err("a dependent template argument".into());
            }
            targ(db, map, &lowered)
        }
    }
}

/// A value expression depending on the template's parameters.
fn expr(db: &dyn SourceDatabase, map: &DefMap, cx: ty::LowerCx<'_>, e: &ConstExpr, names: &[String], depth: u32) -> Result<m::Expr, String> {
    if depth > 32 {
        return Err("expression too deep".into());
    }
    let rec = |x: &ConstExpr| expr(db, map, cx, x, names, depth + 1);
    Ok(match e {
        ConstExpr::Int(v, b) => m::Expr::Literal(m::Literal { ty: m::Type::Builtin(builtin(*b)), negative: false, magnitude: *v }),
        ConstExpr::Path(p) if p.segments.len() == 1 && !p.global && p.segments[0].args.is_none() => {
            match cx.env.and_then(|e| e.get(&p.segments[0].name)) {
                Some(TemplateArg::ValueParam { depth: 0, index }) => m::Expr::TParam(m::TParam(*index)),
                _ => return value_literal(db, map, cx, e),
            }
        }
        ConstExpr::Path(p) if !expr_mentions(e, names) => {
            let _ = p;
            return value_literal(db, map, cx, e);
        }
        ConstExpr::Path(p) => {
            // `Q::name`: `sr <type of Q> <name>`.
            let (last, prefix) = p.segments.split_last().ok_or("empty path")?;
            if prefix.is_empty() || last.args.is_some() {
                return Err("a dependent name the model does not spell".into());
            }
            let q = Path { global: p.global, segments: prefix.to_vec() };
            let ty = mangle_written(db, map, cx, &TypeRef::Path(q), names, depth + 1)?;
            m::Expr::Scoped { ty: Box::new(ty), name: last.name.clone(), args: None }
        }
        ConstExpr::Unary(op, x) => {
            let op = match op {
                UnOp::Neg => m::Op::Neg,
                UnOp::Plus => m::Op::Pos,
                UnOp::Not => m::Op::Not,
                UnOp::BitNot => m::Op::Compl,
            };
            m::Expr::Unary(op, Box::new(rec(x)?))
        }
        ConstExpr::Binary(op, a, b) => m::Expr::Binary(bin_op(*op), Box::new(rec(a)?), Box::new(rec(b)?)),
        ConstExpr::Cond(a, b, c) => m::Expr::Cond(Box::new(rec(a)?), Box::new(rec(b)?), Box::new(rec(c)?)),
        ConstExpr::SizeofType(t) => m::Expr::SizeofType(Box::new(mangle_written(db, map, cx, t, names, depth + 1)?)),
        ConstExpr::AlignofType(t) => m::Expr::AlignofType(Box::new(mangle_written(db, map, cx, t, names, depth + 1)?)),
        _ => return Err("a dependent expression the model does not spell".into()),
    })
}

/// A non-dependent part of a dependent expression: its value.
fn value_literal(db: &dyn SourceDatabase, map: &DefMap, cx: ty::LowerCx<'_>, e: &ConstExpr) -> Result<m::Expr, String> {
    match crate::templates::value_arg(cx, e, None)? {
        TemplateArg::Value(v, t) => Ok(m::Expr::Literal(m::Literal { ty: mangle_ty(db, map, t)?, negative: v < 0, magnitude: v.unsigned_abs() })),
        _ => Err("a dependent value".into()),
    }
}

fn bin_op(op: BinOp) -> m::Op {
    match op {
        BinOp::Add => m::Op::Plus,
        BinOp::Sub => m::Op::Minus,
        BinOp::Mul => m::Op::Mul,
        BinOp::Div => m::Op::Div,
        BinOp::Rem => m::Op::Rem,
        BinOp::Shl => m::Op::Shl,
        BinOp::Shr => m::Op::Shr,
        BinOp::BitAnd => m::Op::And,
        BinOp::BitOr => m::Op::Or,
        BinOp::BitXor => m::Op::Xor,
        BinOp::And => m::Op::AndAnd,
        BinOp::Or => m::Op::OrOr,
        BinOp::Eq => m::Op::Eq,
        BinOp::Ne => m::Op::Ne,
        BinOp::Lt => m::Op::Lt,
        BinOp::Le => m::Op::Le,
        BinOp::Gt => m::Op::Gt,
        BinOp::Ge => m::Op::Ge,
    }
}
