//! Immediate invocations that are no constant expressions (C++20): a call
//! of a `consteval` function outside an immediate function context must be
//! a constant expression. When an argument reads a variable that is not
//! usable in constant expressions, EDG reports 2933 `call to consteval %n
//! did not produce a valid constant expression` at the call's `(`, then
//! note 2689 `the value of %nd cannot be used as a constant` at the first
//! such read (evaluation order: left to right). A call nested in the
//! arguments of another is reported as the outer one. Checked against the
//! real nvcc.
//!
//! Certainty: the caller is a function that is no template and neither
//! `consteval` nor `constexpr` (whether a `constexpr` one becomes an
//! immediate function is not modelled), the call is outside lambdas; the
//! callee is the one function its unqualified name finds, `consteval`,
//! taking each argument by value as a scalar; the arguments are built of
//! literals, names, arithmetic, comparison and bitwise operators, casts and
//! such calls; the read is of a parameter of the caller or of an automatic
//! local that is neither `const` nor `constexpr`, of scalar type, and
//! nothing before it in evaluation order is undecided.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::body::{BinaryOp, Body, Expr, ExprId, LocalId, UnaryOp};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, InferenceResult, Resolution};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::scopes::{def_map, lookup_fns};
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_syntax::TextRange;

use crate::Found;

const CONSTEVAL_NOT_CONSTANT: DiagId = DiagId(2933);
const VARIABLE_NOT_CONSTANT: DiagId = DiagId(2689);

/// A call of a `consteval` function that is no constant expression
/// (offsets relative to the caller's item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonConstantCall {
    /// The call's `(`.
    pub at: u32,
    pub callee: String,
    /// The read (the note's caret), the variable's name and where it is
    /// declared, and whether it is a parameter.
    pub read: u32,
    pub var: String,
    pub declared: u32,
    pub param: bool,
}

/// The immediate invocations of one body that are no constant expressions.
#[salsa::tracked(returns(clone))]
pub fn fn_nonconstant_immediate_calls(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<NonConstantCall>> {
    let decl = FnDecl::Fn(f);
    let Some(data) = decl.data(db) else { return Arc::default() };
    if data.linkage.is_constexpr || data.linkage.is_consteval || crate::device_code::templated(db, decl) {
        return Arc::default();
    }
    let body = infer::decl_body(db, decl);
    if !body.exprs.iter().any(|e| matches!(e, Expr::Call { .. })) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let text = cufront_hir::consteval::interp::item_text(db, f.item(db));
    let cx = Cx { db, decl, body: &body, r: &r };
    let lambdas: Vec<TextRange> = body
        .exprs
        .iter()
        .zip(&body.expr_ranges)
        .filter_map(|(e, r)| matches!(e, Expr::Lambda { .. }).then_some(*r))
        .collect();
    // The immediate invocations outside lambdas; one inside another's
    // arguments is part of the outer one's evaluation.
    let calls: Vec<(ExprId, ExprId, String, TextRange)> = body
        .exprs
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let Expr::Call { callee, .. } = e else { return None };
            let range = body.expr_ranges[i];
            if lambdas.iter().any(|l| l.contains_range(range)) {
                return None;
            }
            let x = ExprId(i as u32);
            Some((x, *callee, cx.consteval_callee(x)?, range))
        })
        .collect();
    let mut params = None;
    let mut out = Vec::new();
    for (x, callee, name, range) in calls.iter().cloned() {
        if calls.iter().any(|c| c.3 != range && c.3.contains_range(range)) {
            continue;
        }
        let Read::Found(read, l) = cx.first_read(x, 0) else { continue };
        let Some(open) = paren_after(&text, body.expr_ranges[callee.0 as usize].end().into()) else { continue };
        // Parameters are named in the declarator, locals in the body.
        let named = match body.params.iter().position(|p| *p == l) {
            Some(k) => params.get_or_insert_with(|| crate::device_vla::param_names(db, f)).get(k).cloned().flatten(),
            None => body.locals[l.0 as usize]
                .name
                .clone()
                .zip(body.local_names.get(l.0 as usize).copied().flatten().map(|r| u32::from(r.start()))),
        };
        let Some((var, declared)) = named else { continue };
        out.push(NonConstantCall {
            at: open,
            callee: name,
            read: u32::from(body.expr_ranges[read.0 as usize].start()),
            var,
            declared,
            param: body.params.contains(&l),
        });
    }
    Arc::new(out)
}

/// The findings of one body (absolute offsets).
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit, f: FnId, start: u32, out: &mut Vec<Found>) {
    for c in fn_nonconstant_immediate_calls(db, f).iter() {
        let callee = DiagEntity { kind: Some(EntityKind::Function), name: c.callee.clone(), ..DiagEntity::default() };
        let declared_at = Some(crate::redefinition::position(db, tu, start + c.declared));
        let kind = if c.param { EntityKind::Parameter } else { EntityKind::Variable };
        let var = DiagEntity { kind: Some(kind), name: c.var.clone(), declared_at, ..DiagEntity::default() };
        out.push(Found::new(start + c.at, CONSTEVAL_NOT_CONSTANT, Severity::Error, vec![Arg::Entity(callee)]));
        let note = Found::new(start + c.read, VARIABLE_NOT_CONSTANT, Severity::Note, vec![Arg::Entity(var)]);
        out.push(Found { order: start + c.at, ..note });
    }
}

/// The `(` after offset `end` (white space between).
fn paren_after(text: &str, end: usize) -> Option<u32> {
    let rest = text.get(end..)?;
    let skipped = rest.len() - rest.trim_start().len();
    rest.trim_start().starts_with('(').then_some((end + skipped) as u32)
}

enum Read {
    /// The first read of a variable not usable in constant expressions.
    Found(ExprId, LocalId),
    /// Every read is of a constant.
    Constant,
    /// Not modelled.
    Unknown,
}

struct Cx<'a> {
    db: &'a dyn SourceDatabase,
    decl: FnDecl,
    body: &'a Body,
    r: &'a InferenceResult,
}

/// Nested calls deeper than this are not followed.
const MAX_DEPTH: u32 = 64;

impl Cx<'_> {
    /// The name of the `consteval` function call `x` calls, when it is the
    /// one function its unqualified name finds and takes scalars by value.
    fn consteval_callee(&self, x: ExprId) -> Option<String> {
        let db = self.db;
        let Expr::Call { callee, args } = self.body.expr(x) else { return None };
        let Expr::Path(p) = self.body.expr(*callee) else { return None };
        if p.global || p.segments.len() != 1 || p.segments[0].args.is_some() {
            return None;
        }
        let resolved = self.r.calls.iter().find(|(s, _)| *s == CallSite::Expr(x)).map(|(_, c)| c);
        let Some(Callee::Entity(cufront_hir::Entity::Fn(g))) = resolved else { return None };
        let map = def_map(db, self.decl.tu(db));
        let scope = instances::fn_scope(db, self.decl)?;
        let name = &p.segments[0].name;
        let only = crate::arity::only_function(db, lookup_fns(db, &map, scope, name))?;
        if only != FnDecl::Fn(*g) && !cufront_hir::exec_space::redeclarations(db, only).contains(&FnDecl::Fn(*g)) {
            return None;
        }
        let data = FnDecl::Fn(*g).data(db)?;
        if !data.linkage.is_consteval {
            return None;
        }
        let sig = instances::signature(db, instances::fn_instance(db, FnDecl::Fn(*g), None, Vec::new())).ok()?;
        if sig.variadic || sig.params.len() != args.len() || !sig.params.iter().all(|p| self.scalar(*p)) {
            return None;
        }
        Some(name.clone())
    }

    fn scalar(&self, t: TyId) -> bool {
        matches!(canonical(self.db, t).kind(self.db), TyKind::Builtin(_) | TyKind::Ptr(_) | TyKind::Enum(_))
    }

    /// The first read, in evaluation order, of a variable not usable in
    /// constant expressions when `e` is evaluated.
    fn first_read(&self, e: ExprId, depth: u32) -> Read {
        if depth > MAX_DEPTH {
            return Read::Unknown;
        }
        let seq = |xs: &[ExprId]| {
            for &x in xs {
                match self.first_read(x, depth + 1) {
                    Read::Constant => {}
                    other => return other,
                }
            }
            Read::Constant
        };
        match self.body.expr(e) {
            Expr::Literal(_) => Read::Constant,
            Expr::Path(_) => match self.r.resolutions.get(&e) {
                Some(Resolution::Local(l)) if self.nonconstant_local(*l) => Read::Found(e, *l),
                _ => Read::Unknown,
            },
            Expr::Unary { op: UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot, expr } => {
                seq(std::slice::from_ref(expr))
            }
            Expr::Binary { op, lhs, rhs }
                if !matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::PtrMem | BinaryOp::PtrMemArrow) =>
            {
                seq(&[*lhs, *rhs])
            }
            Expr::Cast { expr, .. } if self.r.ty(e).is_some_and(|t| self.scalar(t)) => seq(std::slice::from_ref(expr)),
            Expr::Call { args, .. } if self.consteval_callee(e).is_some() => seq(args),
            _ => Read::Unknown,
        }
    }

    /// A parameter of the caller or an automatic local, neither `const` nor
    /// `constexpr`, of scalar type (not a reference).
    fn nonconstant_local(&self, l: LocalId) -> bool {
        let db = self.db;
        let local = &self.body.locals[l.0 as usize];
        if local.is_static || local.is_constexpr || local.binding_of.is_some() || local.pack {
            return false;
        }
        let Some(Some(t)) = self.r.local_tys.get(l.0 as usize) else { return false };
        // `const` locals may be usable in constant expressions.
        !matches!(canonical(db, *t).kind(db), TyKind::Qualified(..)) && self.scalar(*t)
    }
}
