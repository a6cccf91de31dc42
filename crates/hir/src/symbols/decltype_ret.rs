//! A function template's `decltype(expr)` return type as its signature
//! spells it (Itanium `<expression>`, spec 50 §8): `std::construct_at`'s
//! `DTgsnwcvPvLi0E_T_pispcl7declvalIT0_EEEE`, `plus<void>::operator()`'s
//! `DTplcl7forwardIT_Efp_Ecl7forwardIT0_Efp0_EE`. The item tree keeps the
//! operand only as text; its body (`infer::decltype_bodies`, the function's
//! parameters in scope) is written here as g++ writes it: a parameter of
//! the signature as `fp_`/`fpN_` (level 0 in a trailing return type), a
//! template parameter as `T_`, a callee qualified by a namespace by its
//! name alone (g++ keeps only the unqualified name of a function found at
//! definition), one qualified by a dependent type as `sr <type> <name>`.
//!
//! Never a guess: a shape not listed is an error, so the function gets no
//! name rather than a wrong one.

use cufront_mangle::{self as m, Op};

use super::{dependent_member, mangle_ty, mangle_written};
use crate::body::{BinaryOp, Body, CastKind, Expr, ExprId, Literal, UnaryOp};
use crate::item_tree::{Path, TemplateArgRef, TypeRef};
use crate::scopes::{DefMap, ScopeIdx, ScopeKind};
use crate::templates::TemplateArg;
use crate::ty::{self, LowerCx, TyKind};
use cufront_base_db::SourceDatabase;

/// `decltype(…)` as written in `text` (the item tree's token text), in the
/// signature of a function template whose own parameters are `names`.
pub(super) fn decltype_ret(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    scope: ScopeIdx,
    text: &str,
    params: &[TypeRef],
    names: &[String],
    own_packs: &[String],
) -> Result<m::Type, crate::SemaError> {
    let body = crate::infer::operand_body_for(db, cx.item, text, params)
        .ok_or_else(|| format!("`{text}`: operand not lowered, or not told apart from another of that text"))?;
    let body = &*body;
    let root = body.root_expr.ok_or("decltype without operand")?;
    let own_packs: Vec<String> = own_packs.to_vec();
    let w = Writer {
        db,
        map,
        cx,
        scope,
        body,
        names,
        global_new: text.contains("::new"),
        own_packs: &own_packs,
        in_sp: std::cell::Cell::new(0),
    };
    Ok(m::Type::Decltype(Box::new(w.expr(root, 0)?)))
}

/// A constant expression of a signature that the item tree keeps as text
/// (a call in a template argument: CUB's `to_array` returns
/// `::cuda::std::array<CastType, cub::detail::static_size_v<Input>()>`),
/// written as the expressions of `decltype` are.
pub(super) fn written_expr(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: LowerCx<'_>,
    text: &str,
    names: &[String],
) -> Result<m::Expr, crate::SemaError> {
    let body = crate::consteval::text::find(db, cx.item, text).ok_or_else(|| format!("`{text}`: not lowered"))?;
    let root = body.root_expr.ok_or("no expression")?;
    let w = Writer {
        db,
        map,
        cx,
        scope: cx.scope,
        body: &body,
        names,
        global_new: text.contains("::new"),
        own_packs: &[],
        in_sp: std::cell::Cell::new(0),
    };
    w.expr(root, 0)
}

struct Writer<'a> {
    db: &'a dyn SourceDatabase,
    map: &'a DefMap,
    cx: LowerCx<'a>,
    scope: ScopeIdx,
    body: &'a Body,
    names: &'a [String],
    global_new: bool,
    /// The function's own template parameter packs.
    own_packs: &'a [String],
    /// How many `sp` expansions enclose the expression being written.
    in_sp: std::cell::Cell<u32>,
}

impl Writer<'_> {
    fn expr(&self, e: ExprId, depth: u32) -> Result<m::Expr, crate::SemaError> {
        if depth > 32 {
            return Err("decltype operand too deep".into());
        }
        let sub = |x: ExprId| self.expr(x, depth + 1);
        let subs = |xs: &[ExprId]| xs.iter().map(|&x| sub(x)).collect::<Result<Vec<_>, _>>();
        Ok(match &self.body.exprs[e.0 as usize] {
            Expr::Literal(Literal::Int(v, b)) => m::Expr::Literal(m::Literal {
                ty: mangle_ty(self.db, self.map, ty::mk(self.db, TyKind::Builtin(*b)))?,
                negative: false,
                magnitude: *v,
            }),
            Expr::Path(p) => self.path(p, false)?,
            Expr::Call { callee, args } => {
                let f = match &self.body.exprs[callee.0 as usize] {
                    Expr::Path(p) => self.path(p, true)?,
                    _ => sub(*callee)?,
                };
                m::Expr::Call(Box::new(f), subs(args)?)
            }
            Expr::Member { base, arrow, name } if name.segments.len() == 1 && !name.global => {
                let seg = &name.segments[0];
                m::Expr::Member {
                    arrow: *arrow,
                    object: Box::new(sub(*base)?),
                    name: seg.name.clone(),
                    args: self.targs(seg.args.as_deref())?,
                }
            }
            Expr::Unary { op, expr } => {
                let op = match op {
                    UnaryOp::Neg => Op::Neg,
                    UnaryOp::Plus => Op::Pos,
                    UnaryOp::Not => Op::Not,
                    UnaryOp::BitNot => Op::Compl,
                    UnaryOp::Deref => Op::Deref,
                    UnaryOp::AddrOf => Op::AddrOf,
                    UnaryOp::PreInc => Op::PreInc,
                    UnaryOp::PreDec => Op::PreDec,
                    _ => return Err("unary operator not mangled in decltype".into()),
                };
                m::Expr::Unary(op, Box::new(sub(*expr)?))
            }
            Expr::Binary { op, lhs, rhs } => m::Expr::Binary(bin_op(*op)?, Box::new(sub(*lhs)?), Box::new(sub(*rhs)?)),
            Expr::Cond { cond, then, els } => {
                m::Expr::Cond(Box::new(sub(*cond)?), Box::new(sub(*then)?), Box::new(sub(*els)?))
            }
            Expr::Cast { kind, ty, expr } => {
                let k = match kind {
                    CastKind::CStyle => m::CastKind::Functional,
                    CastKind::Static => m::CastKind::Static,
                    CastKind::Const => m::CastKind::Const,
                    CastKind::Reinterpret => m::CastKind::Reinterpret,
                    CastKind::Dynamic => m::CastKind::Dynamic,
                };
                m::Expr::Cast(k, Box::new(self.ty(ty)?), vec![sub(*expr)?])
            }
            Expr::Construct { ty, args, braced: false } => {
                m::Expr::Cast(m::CastKind::Functional, Box::new(self.ty(ty)?), subs(args)?)
            }
            Expr::Construct { ty, args, braced: true } => m::Expr::Braced(Box::new(self.ty(ty)?), subs(args)?),
            Expr::New { placement, ty, args, braced: false, array: false } => m::Expr::New {
                global: self.global_new,
                array: false,
                placement: subs(placement)?,
                ty: Box::new(self.ty(ty)?),
                init: args.as_deref().map(subs).transpose()?,
            },
            Expr::PackExpansion(x) => {
                self.in_sp.set(self.in_sp.get() + 1);
                let r = sub(*x);
                self.in_sp.set(self.in_sp.get() - 1);
                m::Expr::PackExpansion(Box::new(r?))
            }
            _ => return Err("expression shape not mangled in decltype".into()),
        })
    }

    /// A name: a parameter of the signature, a template parameter, or an
    /// unresolved name (`callee`: the function of a call).
    fn path(&self, p: &Path, callee: bool) -> Result<m::Expr, crate::SemaError> {
        let Some((last, quals)) = p.segments.split_last() else { return Err("empty path".into()) };
        if quals.is_empty() && !p.global && last.args.is_none() {
            if let Some(k) = self
                .body
                .params
                .iter()
                .position(|&l| self.body.locals[l.0 as usize].name.as_deref() == Some(last.name.as_str()))
            {
                // A pack of the enclosing specialization is expanded there
                // (`get(fp, args...)` with `args` of an outer `Ts...` is
                // `3getfp_E` when `Ts` is empty): not modelled.
                if self.in_sp.get() > 0 {
                    let mut v = Vec::new();
                    crate::instances::typeref_names(&self.body.locals[self.body.params[k].0 as usize].ty, &mut v);
                    if !v.iter().any(|n| self.own_packs.contains(n)) {
                        return Err(crate::error::gap!(
                            "`{}`: a pack of the enclosing specialization in decltype",
                            last.name
                        ));
                    }
                }
                return Ok(m::Expr::FnParam { level: 0, index: k as u32, quals: m::Quals::default() });
            }
            match self.cx.env.and_then(|e| e.get(&last.name)) {
                Some(TemplateArg::ValueParam { depth: 0, index }) => return Ok(m::Expr::TParam(m::TParam(*index))),
                Some(_) => return Err(crate::error::gap!("`{}` names a template argument used as a value", last.name)),
                None => {}
            }
        }
        let args = self.targs(last.args.as_deref())?;
        if quals.is_empty() {
            // g++ writes `::f(x)` as `f` too; a non-callee global name
            // would be `L_Z…E`: not modelled.
            return if callee {
                Ok(m::Expr::Id(last.name.clone(), args))
            } else {
                Err(crate::error::gap!("`{}` not a callee", last.name))
            };
        }
        let q = Path { global: p.global, segments: quals.to_vec() };
        let qt = TypeRef::Path(q.clone());
        let dep = (!p.global && self.names.contains(&quals[0].name))
            || dependent_member(self.db, self.map, self.scope, &qt, self.names);
        if dep {
            return Ok(m::Expr::Scoped { ty: Box::new(self.ty(&qt)?), name: last.name.clone(), args });
        }
        let qscope = crate::scopes::qualifier_scope_in_map(self.map, self.scope, &q)
            .filter(|&s| matches!(self.map.scope(s).kind, ScopeKind::Namespace { .. } | ScopeKind::Root));
        if let Some(qs) = qscope
            && callee
        {
            // EDG keeps the qualifiers of an overload set and of a name
            // qualified from the enclosing scopes (cicc's device names:
            // `gssr4cuda3std3__4E7forwardIT_E`,
            // `sr3cub6detailE13static_size_vIT0_E`); g++ does not. EDG
            // names a single function template qualified from the global
            // scope as the entity (`clL_ZNS1_7declvalEEE`): not modelled,
            // g++'s form stays.
            let overloaded = crate::scopes::own_fns(self.db, self.map, qs, &last.name).len() > 1;
            if (overloaded || !p.global) && quals.iter().all(|q| q.args.is_none()) {
                let quals = quals.iter().map(|q| q.name.clone()).collect();
                return Ok(m::Expr::NsId { global: p.global, quals, name: last.name.clone(), args });
            }
            return Ok(m::Expr::Id(last.name.clone(), args));
        }
        Err(crate::error::gap!("qualified name `{}` in decltype not mangled", last.name))
    }

    fn targs(&self, args: Option<&[TemplateArgRef]>) -> Result<Option<Vec<m::TArg>>, crate::SemaError> {
        let Some(args) = args else { return Ok(None) };
        args.iter()
            .map(|a| match a {
                TemplateArgRef::Type(t) => Ok(m::TArg::Type(self.ty(t)?)),
                TemplateArgRef::Expansion(x) => match &**x {
                    TemplateArgRef::Type(t) => Ok(m::TArg::Type(m::Type::PackExpansion(Box::new(self.ty(t)?)))),
                    _ => Err("value pack expansion in decltype".into()),
                },
                TemplateArgRef::Expr(_) => Err("value template argument in decltype".into()),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    fn ty(&self, t: &TypeRef) -> Result<m::Type, crate::SemaError> {
        if dependent_member(self.db, self.map, self.scope, t, self.names) {
            mangle_written(self.db, self.map, self.cx, t, self.names, 0)
        } else {
            mangle_ty(self.db, self.map, ty::lower(self.cx, t))
        }
    }
}

fn bin_op(op: BinaryOp) -> Result<Op, crate::SemaError> {
    Ok(match op {
        BinaryOp::Add => Op::Plus,
        BinaryOp::Sub => Op::Minus,
        BinaryOp::Mul => Op::Mul,
        BinaryOp::Div => Op::Div,
        BinaryOp::Rem => Op::Rem,
        BinaryOp::Shl => Op::Shl,
        BinaryOp::Shr => Op::Shr,
        BinaryOp::BitAnd => Op::And,
        BinaryOp::BitOr => Op::Or,
        BinaryOp::BitXor => Op::Xor,
        BinaryOp::And => Op::AndAnd,
        BinaryOp::Or => Op::OrOr,
        BinaryOp::Eq => Op::Eq,
        BinaryOp::Ne => Op::Ne,
        BinaryOp::Lt => Op::Lt,
        BinaryOp::Le => Op::Le,
        BinaryOp::Gt => Op::Gt,
        BinaryOp::Ge => Op::Ge,
        BinaryOp::Spaceship => Op::Spaceship,
        _ => return Err("pointer-to-member operator in decltype".into()),
    })
}
