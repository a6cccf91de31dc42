//! A closure type among the template arguments of a kernel template
//! instance (cicc's front end, 3582: `The closure type for a lambda
//! ("lambda [](int)->int", defined at a.cu:3) cannot be used in the
//! template argument type of a __global__ function template instantiation,
//! unless …`), with EDG's context `detected during instantiation of "kern"
//! based on template argument <lambda [](int)->int> at line 4`. Checked
//! against the real nvcc: the caret is at the launch (its callee's start),
//! each instance is reported once, at its first launch in the unit; the
//! closure may be an argument or inside one (`W<lambda …>`); a lambda
//! defined in a `__device__` or `__global__` function, or an extended
//! lambda (`__device__` or `__host__ __device__`, with `--extended-lambda`,
//! in a host or host-device function) is allowed. EDG spells a closure
//! type `lambda [](PARAMS)[ mutable]->RET[ noexcept]`, never with its
//! captures.
//!
//! Certainty: only launches `hir::infer` resolves to a kernel template
//! instance, only closures of lambdas written in a non-template function
//! of the unit, and only when every argument of the instance is spelled
//! (`spell.rs`, closure types and class template specializations here);
//! generic lambdas (`auto` parameters) are not spelled, so not reported.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer::{self, ClosureFnId, ClosureFnKind, ClosureId, InferOwner};
use cufront_hir::instances::{FnDecl, FnInstanceId};
use cufront_hir::templates::TemplateArg;
use cufront_hir::ty::{TyId, TyKind};
use cufront_hir::{Entity, FnId, body::Expr};

use crate::spell;

/// One launch of a kernel template instance with a closure type among its
/// arguments that may not be there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosureLaunch {
    /// The launch's callee, relative to the item.
    pub at: u32,
    pub inst: FnInstanceId,
    /// The first closure type that may not be an argument.
    pub closure: ClosureId,
}

/// The launches in `f`'s body (any execution space) whose kernel instance
/// takes a closure type that may not be there.
#[salsa::tracked(returns(clone))]
pub fn fn_closure_launches(db: &dyn SourceDatabase, f: FnId, extended_lambda: bool) -> Arc<Vec<ClosureLaunch>> {
    let decl = FnDecl::Fn(f);
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let body = infer::decl_body(db, decl);
    let mut out = Vec::new();
    // The kernel a launch calls is among the calls infer records at the
    // launch (with the constructors that convert its arguments).
    for (site, callee) in &r.calls {
        let (infer::CallSite::Expr(e), infer::Callee::Entity(Entity::FnInst(inst))) = (site, callee) else {
            continue;
        };
        let Some(Expr::KernelLaunch { callee: named, .. }) = body.exprs.get(e.0 as usize) else { continue };
        if exec_space::fn_exec_space(db, inst.decl(db)) != ExecSpace::Global || inst.args(db).is_empty() {
            continue;
        }
        let mut closures = Vec::new();
        for a in inst.args(db) {
            arg_closures(db, a, &mut closures);
        }
        let Some(&closure) = closures.iter().find(|c| !allowed(db, **c, extended_lambda)) else { continue };
        let Some(range) = body.expr_ranges.get(named.0 as usize) else { continue };
        out.push(ClosureLaunch { at: range.start().into(), inst: *inst, closure });
    }
    out.sort_by_key(|l| l.at);
    Arc::new(out)
}

/// The closure types inside a template argument.
fn arg_closures(db: &dyn SourceDatabase, a: &TemplateArg, out: &mut Vec<ClosureId>) {
    match a {
        TemplateArg::Type(t) => ty_closures(db, *t, out),
        TemplateArg::Pack(xs) => xs.iter().for_each(|x| arg_closures(db, x, out)),
        _ => {}
    }
}

fn ty_closures(db: &dyn SourceDatabase, t: TyId, out: &mut Vec<ClosureId>) {
    match cufront_hir::ty::canonical(db, t).kind(db) {
        TyKind::Closure(c) => out.push(*c),
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => {
            ty_closures(db, *x, out)
        }
        TyKind::App(app) => app.args(db).iter().for_each(|a| arg_closures(db, a, out)),
        _ => {}
    }
}

/// Whether a closure of this lambda may be a kernel's template argument:
/// the lambda is in device code, or is an extended lambda.
fn allowed(db: &dyn SourceDatabase, c: ClosureId, extended_lambda: bool) -> bool {
    // Only lambdas written in a non-template function of the unit are
    // judged (a lambda in a lambda, in an initializer or in an instance:
    // allowed, that is, not reported).
    let InferOwner::Fn(owner) = c.owner(db) else { return true };
    let body = infer::owner_body(db, c.owner(db));
    let Some(Expr::Lambda { device, .. }) = body.exprs.get(c.expr(db).0 as usize) else { return true };
    match exec_space::fn_exec_space(db, FnDecl::Fn(owner)) {
        ExecSpace::Device | ExecSpace::Global => true,
        // Extended: `__device__` or `__host__ __device__`.
        _ => extended_lambda && *device,
    }
}

/// EDG's spelling of a closure type, `lambda [](int, float)->float`; `None`
/// for a generic lambda, a C ellipsis or a type `spell` does not know.
pub(crate) fn closure(db: &dyn SourceDatabase, c: ClosureId) -> Option<String> {
    let body = infer::owner_body(db, c.owner(db));
    let Some(Expr::Lambda { mutable, tparams, variadic, noexcept, .. }) = body.exprs.get(c.expr(db).0 as usize) else {
        return None;
    };
    if *tparams || *variadic {
        return None;
    }
    let noexcept = (*noexcept)?;
    let sig = infer::closure_fn_sig(db, ClosureFnId::new(db, c, ClosureFnKind::Call, Vec::new())).ok()?;
    let params: Vec<String> = sig.params.iter().map(|&p| arg_type(db, p)).collect::<Option<_>>()?;
    let ret = arg_type(db, sig.ret)?;
    Some(format!(
        "lambda []({}){}->{ret}{}",
        params.join(", "),
        if *mutable { " mutable" } else { "" },
        if noexcept { " noexcept" } else { "" }
    ))
}

/// A type as this message spells it: closure types and class template
/// specializations (`W<lambda [](int)->int>`, brackets not separated:
/// checked) besides what `spell` knows.
pub(crate) fn arg_type(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    match t.kind(db) {
        TyKind::Closure(c) => closure(db, *c),
        TyKind::App(app) => {
            let (template, count) = spell::template_name(db, app.template(db))?;
            if app.args(db).len() != count {
                return None;
            }
            let args: Vec<String> = app.args(db).iter().map(|a| template_arg(db, a)).collect::<Option<_>>()?;
            Some(format!("{template}<{}>", args.join(", ")))
        }
        _ => spell::spell(db, t),
    }
}

/// A template argument as this message spells it.
pub(crate) fn template_arg(db: &dyn SourceDatabase, a: &TemplateArg) -> Option<String> {
    match a {
        TemplateArg::Type(t) => arg_type(db, *t),
        TemplateArg::Value(v, t) => spell::value(db, *v, *t),
        _ => None,
    }
}
