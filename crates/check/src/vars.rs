//! Host uses of device variables (spec 20 §7): in a host or `__host__
//! __device__` body, reading a `__device__`, `__constant__` or
//! `__shared__` variable warns 3548 (#20091), writing a `__device__` or
//! `__shared__` one warns 3549 (#20092), taking the address of a
//! `__shared__` one warns 3550 (#20093). `__managed__` and const variables
//! are fine.
//!
//! EDG reads a variable where its lvalue is converted to a value: the
//! checks look at the contexts that certainly convert (operands of
//! arithmetic, comparison and logical operators, conditions, the right of
//! an assignment, the initializer of a non-reference local, a `return`
//! from a function that does not return a reference); `++`/`--` and
//! compound assignments read and write; a plain assignment writes. A
//! variable reached through members and array elements counts as the
//! variable. Uses elsewhere (call arguments, reference bindings,
//! unevaluated operands) give nothing: silence where the model is unsure.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::body::{BinaryOp, Body, Cond, Expr, ExprId, Init, Stmt, UnaryOp};
use cufront_hir::exec_space::{CudaAttrs, ExecSpace};
use cufront_hir::infer::{self, InferOwner, InferenceResult, Resolution};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::TypeRef;
use cufront_hir::{Entity, FnId};

use crate::Raw;
use crate::calls::{innermost_lambda, lambda_space, lambdas_of};

const READ: DiagId = DiagId(3548);
const WRITTEN: DiagId = DiagId(3549);
const ADDRESS: DiagId = DiagId(3550);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    ReadWrite,
    Address,
}

/// The variable uses of a body that certainly read, write or take an
/// address, in source order (`None`: the body is not inferred).
fn var_uses(
    db: &dyn SourceDatabase,
    f: FnId,
    prefilter: bool,
) -> Option<(Arc<Body>, Arc<InferenceResult>, Vec<(ExprId, Access)>)> {
    let decl = FnDecl::Fn(f);
    let data = decl.data(db)?;
    let body = infer::decl_body(db, decl);
    if prefilter && !crate::interest::worth_inferring(&crate::interest::device_names(db, decl.tu(db)), &body) {
        return None;
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return None;
    }
    let returns_ref = matches!(data.ty.ret, TypeRef::LRef(_) | TypeRef::RRef(_));
    let mut uses: Vec<(ExprId, Access)> = Vec::new();
    let calls = r
        .calls
        .iter()
        .filter_map(|(s, _)| match s {
            infer::CallSite::Expr(e) => Some(*e),
            _ => None,
        })
        .collect();
    let mut cx = Cx { db, calls, body: &body, r: &r, uses: &mut uses };
    for e in 0..body.exprs.len() {
        cx.context(ExprId(e as u32));
    }
    for s in &body.stmts {
        match s {
            Stmt::Return(Some(e)) if !returns_ref => cx.value(*e),
            Stmt::If { cond: Cond::Expr(e), .. }
            | Stmt::While { cond: Cond::Expr(e), .. }
            | Stmt::Switch { cond: Cond::Expr(e), .. }
            | Stmt::Do { cond: e, .. }
            | Stmt::For { cond: Some(Cond::Expr(e)), .. } => cx.value(*e),
            _ => {}
        }
    }
    for l in &body.locals {
        if let Init::Assign(e) = l.init
            && !matches!(l.ty, TypeRef::LRef(_) | TypeRef::RRef(_))
            && !matches!(&l.ty, TypeRef::Opaque(t) if t.contains('&'))
        {
            cx.value(e);
        }
    }
    uses.sort_by_key(|&(e, _)| body.expr_ranges[e.0 as usize].start());
    uses.dedup();
    Some((body, r, uses))
}

/// What the host pass finds on one body's uses of device variables
/// (offsets relative to the item).
#[salsa::tracked(returns(clone))]
pub fn fn_var_findings(db: &dyn SourceDatabase, f: FnId, extended_lambda: bool) -> Arc<Vec<Raw>> {
    let space = cufront_hir::exec_space::fn_exec_space(db, FnDecl::Fn(f));
    let Some((body, r, uses)) = var_uses(db, f, true) else { return Arc::default() };
    let lambdas = lambdas_of(&body);
    let mut out = Vec::new();
    for (e, access) in uses {
        let range = body.expr_ranges[e.0 as usize];
        let space = match innermost_lambda(&lambdas, range) {
            None => Some(space),
            Some(l) => lambda_space(l, space, extended_lambda),
        };
        if !matches!(space, Some(ExecSpace::Host | ExecSpace::ImplicitHost | ExecSpace::HostDevice)) {
            continue;
        }
        let Some(Resolution::Entity(Entity::Var(v))) = r.resolutions.get(&e) else { continue };
        let tree = cufront_hir::item_tree_of(db, v.item(db));
        let Some(vd) = tree.vars.get(v.idx(db) as usize) else { continue };
        let a = vd.linkage.cuda;
        if a.managed || vd.is_const || vd.linkage.is_constexpr {
            continue;
        }
        let Some(kind) = space_word(a) else { continue };
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name: vd.name.clone(), ..DiagEntity::default() };
        let args = vec![Arg::Str(kind.into()), Arg::Entity(entity)];
        let at = u32::from(range.start());
        let mut push = |id| out.push(Raw { at, id, severity: Severity::Warning, args: args.clone() });
        match access {
            Access::Read => push(READ),
            Access::Write if !a.constant => push(WRITTEN),
            Access::ReadWrite => {
                push(READ);
                if !a.constant {
                    push(WRITTEN);
                }
            }
            Access::Address if a.shared => push(ADDRESS),
            _ => {}
        }
    }
    Arc::new(out)
}

fn space_word(a: CudaAttrs) -> Option<&'static str> {
    Some(if a.shared {
        "__shared__"
    } else if a.constant {
        "__constant__"
    } else if a.device {
        "__device__"
    } else {
        return None;
    })
}

struct Cx<'a> {
    db: &'a dyn SourceDatabase,
    /// Expressions the model resolved to a function call (overloaded operators).
    calls: rustc_hash::FxHashSet<ExprId>,
    body: &'a Body,
    r: &'a InferenceResult,
    uses: &'a mut Vec<(ExprId, Access)>,
}

impl Cx<'_> {
    /// The operands expression `e` certainly reads, writes or takes the address of.
    fn context(&mut self, e: ExprId) {
        match self.body.expr(e) {
            Expr::Binary { op, lhs, rhs } if !matches!(op, BinaryOp::PtrMem | BinaryOp::PtrMemArrow) => {
                self.value(*lhs);
                self.value(*rhs);
            }
            Expr::Assign { op: None, lhs, rhs } => {
                self.object(*lhs, Access::Write);
                self.value(*rhs);
            }
            Expr::Assign { op: Some(_), lhs, rhs } => {
                self.object(*lhs, Access::ReadWrite);
                self.value(*rhs);
            }
            Expr::Unary { op, expr } => match op {
                UnaryOp::AddrOf => self.object(*expr, Access::Address),
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                    self.object(*expr, Access::ReadWrite)
                }
                UnaryOp::Deref | UnaryOp::Other => {}
                _ => self.value(*expr),
            },
            Expr::Cond { cond, .. } => self.value(*cond),
            // Arguments for parameters that are not references are copied.
            Expr::Call { args, .. } => {
                let Some(params) = self.callee_params(e) else { return };
                for (i, &a) in args.iter().enumerate() {
                    let by_value = match params.get(i) {
                        Some(&p) => !matches!(
                            cufront_hir::ty::canonical(self.db, p).kind(self.db),
                            cufront_hir::TyKind::LRef(_) | cufront_hir::TyKind::RRef(_)
                        ),
                        None => false,
                    };
                    if by_value {
                        self.value(a);
                    }
                }
            }
            _ => {}
        }
    }

    /// The parameter types of the function a call expression resolved to.
    fn callee_params(&self, e: ExprId) -> Option<Vec<cufront_hir::TyId>> {
        let callee = self.r.calls.iter().find_map(|(s, c)| match (s, c) {
            (infer::CallSite::Expr(x), infer::Callee::Entity(ent)) if *x == e => Some(*ent),
            _ => None,
        })?;
        let inst = match callee {
            Entity::Fn(f) => cufront_hir::instances::fn_instance(self.db, FnDecl::Fn(f), None, Vec::new()),
            Entity::FnInst(i) => i,
            _ => return None,
        };
        cufront_hir::instances::signature(self.db, inst).ok().map(|s| s.params)
    }

    /// `e` is converted to a value: a variable it designates is read.
    fn value(&mut self, e: ExprId) {
        // An operator the model resolved to a function takes its operands
        // as that function's parameters: not certainly a read.
        // An array used as a value decays to a pointer: not a read.
        if self.calls.contains(&e) || (matches!(self.body.expr(e), Expr::Path(_)) && self.is_array(e)) {
            return;
        }
        self.object(e, Access::Read);
    }

    /// `e` designates an object accessed as `access`: the variable it is,
    /// or whose member or array element it is.
    fn object(&mut self, e: ExprId, access: Access) {
        match self.body.expr(e) {
            Expr::Path(_) => self.uses.push((e, access)),
            Expr::Member { base, arrow: false, .. } => self.object(*base, access),
            Expr::Index { base, .. } => match self.body.expr(*base) {
                // `p[i]` with a pointer `p` reads `p`; `a[i]` of an array is part of `a`.
                Expr::Path(_) if self.is_array(*base) => self.object(*base, access),
                Expr::Path(_) => self.uses.push((*base, Access::Read)),
                _ => {}
            },
            _ => {}
        }
    }

    /// The type of an id-expression naming an array is the array type.
    fn is_array(&self, e: ExprId) -> bool {
        self.r.ty(e).is_some_and(|t| {
            matches!(cufront_hir::ty::canonical(self.db, t).kind(self.db), cufront_hir::TyKind::Array(..))
        })
    }
}

/// What cicc's front end finds on one device body's uses of host
/// variables: warnings 3551–3553 while parsing, and (late) `identifier
/// "v" is undefined in device code` (3525) for each variable read or
/// written. Offsets relative to the item.
#[salsa::tracked(returns(clone))]
pub fn fn_device_var_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<crate::device::DeviceFinding>> {
    let space = cufront_hir::exec_space::fn_exec_space(db, FnDecl::Fn(f));
    if !matches!(space, ExecSpace::Device | ExecSpace::Global) {
        return Arc::default();
    }
    let Some((body, r, uses)) = var_uses(db, f, false) else { return Arc::default() };
    let lambdas = lambdas_of(&body);
    let mut out = Vec::new();
    let mut late = Vec::new();
    for (e, access) in uses {
        let range = body.expr_ranges[e.0 as usize];
        if innermost_lambda(&lambdas, range).is_some() {
            continue;
        }
        let Some(Resolution::Entity(Entity::Var(v))) = r.resolutions.get(&e) else { continue };
        let tree = cufront_hir::item_tree_of(db, v.item(db));
        let Some(vd) = tree.vars.get(v.idx(db) as usize) else { continue };
        if vd.linkage.cuda.has_memory_space() || vd.is_const || vd.linkage.is_constexpr {
            continue;
        }
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name: vd.name.clone(), ..DiagEntity::default() };
        let at = u32::from(range.start());
        let id = match access {
            Access::Read | Access::ReadWrite => DiagId(3551),
            Access::Write => DiagId(3552),
            Access::Address => DiagId(3553),
        };
        let finding = |late, id, args| crate::device::DeviceFinding {
            at,
            skip_blanks: false,
            late,
            id,
            severity: if late { Severity::Error } else { Severity::Warning },
            args,
        };
        out.push(finding(false, id, vec![Arg::Entity(entity)]));
        late.push(finding(true, DiagId(3525), vec![Arg::Str(vd.name.clone())]));
    }
    out.extend(late);
    Arc::new(out)
}
