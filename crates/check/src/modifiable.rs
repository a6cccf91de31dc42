//! `expression must be a modifiable lvalue` (EDG 137, an error): the
//! operand of an assignment, a compound assignment or an increment or
//! decrement is not a modifiable lvalue. cudafe++ checks every body,
//! device ones too (spec 61).
//!
//! The operand's type decides: only a scalar, pointer, enumeration or
//! array operand is checked (a class operand calls its `operator=`,
//! overload resolution's business). It is not modifiable when it is a
//! prvalue (`g() = 1`, `5 = 1`, an enumerator), an array, `const` (a
//! `const` local, `*p` through `const int *`, a member of a `const` object,
//! `mutable` members excepted), or a `__constant__` variable in a
//! `__device__` or `__global__` body. The caret is at the operand.
//!
//! Certainty: only what `infer` typed: an operand without a type, or of a
//! dependent, class or unknown type, gives nothing.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{DiagId, Severity};
use cufront_hir::body::{Expr, ExprId, UnaryOp};
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer::{self, Category, InferOwner, Resolution};
use cufront_hir::instances::FnDecl;
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{Entity, FnId};

use crate::Raw;

const NOT_MODIFIABLE: DiagId = DiagId(137);

/// The unmodifiable operands of one body (offsets relative to the item).
#[salsa::tracked(returns(clone))]
pub fn fn_unmodifiable(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    let operands: Vec<(ExprId, Option<ExprId>)> = body
        .exprs
        .iter()
        .filter_map(|e| match e {
            Expr::Assign { lhs, rhs, .. } => Some((*lhs, Some(*rhs))),
            Expr::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec, expr } => {
                Some((*expr, None))
            }
            _ => None,
        })
        .collect();
    if operands.is_empty() {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let device = matches!(exec_space::fn_exec_space(db, decl), ExecSpace::Device | ExecSpace::Global);
    let mut out = Vec::new();
    for (e, rhs) in operands {
        // A class on the right: overload resolution's (`ci += s` is `no
        // operator "+=" matches these operands`, checked; operators.rs).
        let class = |t: TyId| {
            let t = cufront_hir::infer::strip_cv(db, canonical(db, t));
            matches!(t.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_))
        };
        if rhs.and_then(|x| r.ty(x)).is_some_and(class) {
            continue;
        }
        let (Some(Some(ty)), Some(cat)) = (r.expr_tys.get(e.0 as usize), r.categories.get(e.0 as usize)) else {
            continue;
        };
        let Some(shape) = shape(db, *ty) else { continue };
        let constant_var = device
            && matches!(r.resolutions.get(&e), Some(Resolution::Entity(Entity::Var(v)))
                if cufront_hir::item_tree_of(db, v.item(db)).vars.get(v.idx(db) as usize)
                    .is_some_and(|vd| vd.linkage.cuda.constant));
        let bad = match cat {
            Category::PRValue => true,
            Category::LValue => shape == Shape::Const || shape == Shape::Array || constant_var,
            Category::XValue => false,
        };
        if bad {
            let at = u32::from(body.expr_ranges[e.0 as usize].start());
            out.push(Raw { at, id: NOT_MODIFIABLE, severity: Severity::Error, args: Vec::new() });
        }
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A scalar, pointer or enumeration that may be assigned.
    Scalar,
    /// The same, `const`.
    Const,
    Array,
}

/// What kind of operand a type makes; `None` for class, dependent and
/// unknown types (no finding).
fn shape(db: &dyn SourceDatabase, ty: TyId) -> Option<Shape> {
    let mut ty = ty;
    let mut constant = false;
    loop {
        match canonical(db, ty).kind(db) {
            TyKind::Qualified(inner, cv) => {
                constant |= cv.c;
                ty = *inner;
            }
            TyKind::Builtin(b) if *b != cufront_hir::item_tree::Builtin::Void => break,
            TyKind::Ptr(_) | TyKind::Enum(_) | TyKind::MemPtr { .. } => break,
            TyKind::Array(..) => return Some(Shape::Array),
            _ => return None,
        }
    }
    Some(if constant { Shape::Const } else { Shape::Scalar })
}
